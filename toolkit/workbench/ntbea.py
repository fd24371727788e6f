"""`patchwork tune`: an N-Tuple Bandit Evolutionary Algorithm (NTBEA) over several sweepable keys.

NTBEA (Lucas, Liu and Perez-Liebana 2018; the Tabletop Games Framework tunes game parameters with
it) searches a grid too large to sweep. Each iteration plays one noisy evaluation of the current
point, adds its fitness to a bandit model of 1-tuples (each key alone), 2-tuples (each pair of
keys) and the N-tuple (the whole point), then draws neighbours of the current point by mutation
and moves to the one with the best upper confidence bound, averaged over the tuples. The last
evaluations of the budget (`refine`) re-play the point the model rates best (tuple means, no
exploration) and its neighbours (every key within one step): one evaluation of a few hundred games
is noisier than a target's scale, so the model's favourite is often beaten by a neighbour it never
tried. The point with the best mean fitness over its own evaluations is then played on fresh deals,
and each target is judged against its tolerance (`judge`) with a deal-clustered 95% interval.

`search` is the algorithm alone, on any noisy objective (tests check it on a synthetic one with a
known optimum); `Target`, `evaluate` and `tune` make the objective from games: the fitness of a
point is minus the sum of squared distances of its figures from their targets, each in its own
scale (`Target.scale`).
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from toolkit.errors import UsageError
from toolkit.specs.models import Edition
from toolkit.stats import deal_mean, deal_rate, per_deal_sq
from toolkit.workbench import setpath

if TYPE_CHECKING:
    from toolkit.families import Seating

Point = tuple[int, ...]
"""A point of the search space: one index per key into that key's values."""


# ----- the algorithm --------------------------------------------------------------------------


@dataclass
class _Stats:
    n: int = 0
    total: float = 0.0


@dataclass
class Model:
    """The bandit statistics of every tuple of keys seen so far."""

    tuples: tuple[tuple[int, ...], ...]
    """Which keys each tuple covers: every single key, every pair, and all keys."""
    stats: list[dict[tuple[int, ...], _Stats]] = field(default_factory=list)
    evaluations: int = 0

    @staticmethod
    def for_keys(keys: int) -> "Model":
        tuples = {(k,) for k in range(keys)} | set(itertools.combinations(range(keys), 2)) | {tuple(range(keys))}
        ordered = tuple(sorted(tuples, key=lambda t: (len(t), t)))
        return Model(ordered, [{} for _ in ordered])

    def add(self, point: Point, fitness: float) -> None:
        self.evaluations += 1
        for keys, table in zip(self.tuples, self.stats):
            s = table.setdefault(tuple(point[k] for k in keys), _Stats())
            s.n += 1
            s.total += fitness

    def value(self, point: Point, explore: float) -> float:
        """Mean over the tuples of (mean fitness + explore * sqrt(log(N + 1) / (n + eps))); a
        tuple never seen counts only its exploration bonus (a large one), so unseen settings get tried."""
        eps = 0.5
        total = 0.0
        for keys, table in zip(self.tuples, self.stats):
            s = table.get(tuple(point[k] for k in keys))
            n, mean = (s.n, s.total / s.n) if s else (0, 0.0)
            total += mean + explore * math.sqrt(math.log(self.evaluations + 1) / (n + eps))
        return total / len(self.tuples)

    def mean(self, point: Point) -> float | None:
        """The model's estimate of a point: the mean fitness of its tuples that were seen."""
        means = []
        for keys, table in zip(self.tuples, self.stats):
            s = table.get(tuple(point[k] for k in keys))
            if s:
                means.append(s.total / s.n)
        return sum(means) / len(means) if means else None

    def played_mean(self, point: Point) -> float:
        """`mean` of a point that was played (each one's own tuples were seen)."""
        value = self.mean(point)
        if value is None:
            raise ValueError(f"point {point} was never played")
        return value


@dataclass(frozen=True)
class Search:
    """What a search did: the point chosen and every evaluation in order."""

    best: Point
    best_model_fitness: float
    history: tuple[tuple[Point, float], ...]
    centre: Point | None = None
    """The point the model rated best when the search phase ended (None: no re-evaluation)."""
    refined: tuple[Point, ...] = ()
    """The points the last evaluations re-played: the centre, then its neighbours, in the order played."""
    refine_evaluations: int = 0
    """Evaluations spent re-playing them (the last ones of the history)."""


CHOICE_RULE = ("the point with the highest mean fitness over its own evaluations (search and re-evaluation) among the "
               "best point of the model and its neighbours")


DIAGONAL_KEYS = 8
"""Up to this many keys the neighbourhood holds every point with each key within one step (3^8 points);
beyond it only the points one key away, so that listing the neighbourhood stays quick."""


def neighbourhood(centre: Point, sizes: Sequence[int], model: "Model") -> list[Point]:
    """The centre, then the points one step away along one key, then the rest of the points with every
    key within one step (the model's best first): the order in which a short re-evaluation plays them."""
    ring = []
    steps = (itertools.product((-1, 0, 1), repeat=len(sizes)) if len(sizes) <= DIAGONAL_KEYS else
             (tuple(d if j == k else 0 for j in range(len(sizes))) for k in range(len(sizes)) for d in (-1, 1)))
    for step in steps:
        p = tuple(c + d for c, d in zip(centre, step))
        if p != centre and all(0 <= v < n for v, n in zip(p, sizes)):
            ring.append(p)
    axis = sorted(p for p in ring if sum(a != b for a, b in zip(p, centre)) == 1)
    rest = sorted((p for p in ring if p not in axis),
                  key=lambda p: (-(m if (m := model.mean(p)) is not None else -math.inf), p))
    return [centre, *axis, *rest]


def _mutate(point: Point, sizes: Sequence[int], rng: np.random.Generator, mutation: float) -> Point:
    """A neighbour: each key changes with probability `mutation`, at least one always does."""
    keys = [k for k in range(len(sizes)) if sizes[k] > 1]
    if not keys:
        return point
    new = list(point)
    changed = False
    for k in keys:
        if rng.random() < mutation:
            new[k] = int(rng.integers(sizes[k]))
            changed = changed or new[k] != point[k]
    if not changed:
        k = keys[int(rng.integers(len(keys)))]
        choices = [v for v in range(sizes[k]) if v != point[k]]
        new[k] = choices[int(rng.integers(len(choices)))]
    return tuple(new)


def search(
    sizes: Sequence[int],
    evaluate: Callable[[Point, int], float],
    budget: int,
    seed: int,
    explore: float = 2.0,
    neighbours: int = 50,
    mutation: float | None = None,
    progress: Callable[[int], None] | None = None,
    refine: int = 0,
) -> Search:
    """NTBEA over a grid of `sizes[k]` values per key; `evaluate(point, i)` is the i-th (noisy)
    evaluation, maximised. `explore` is the UCB constant in fitness units; `neighbours` the
    mutants drawn per iteration; `mutation` the chance that a key mutates (default 1/keys).

    `refine`: the last evaluations of the budget re-play the model's best point and its neighbours
    (`neighbourhood`, in turn, round and round), and the point chosen is the one of them with the
    best mean over its own evaluations (CHOICE_RULE); 0 keeps the model's best point."""
    if budget < 1:
        raise UsageError(f"--budget must be at least 1 evaluation, got {budget}")
    if not 0 <= refine < budget:
        raise UsageError(f"--refine must be 0..{budget - 1} (the search needs at least one of the {budget} "
                         f"evaluations), got {refine}")
    rng = np.random.default_rng(seed)
    model = Model.for_keys(len(sizes))
    rate = mutation if mutation is not None else 1.0 / max(1, len(sizes))
    current: Point = tuple(int(rng.integers(s)) for s in sizes)
    history: list[tuple[Point, float]] = []

    def play(point: Point) -> None:
        fitness = float(evaluate(point, len(history)))
        model.add(point, fitness)
        history.append((point, fitness))
        if progress:
            progress(len(history))

    for _ in range(budget - refine):
        play(current)
        candidates = {_mutate(current, sizes, rng, rate) for _ in range(neighbours)}
        current = max(sorted(candidates), key=lambda p: model.value(p, explore))
    seen = sorted({p for p, _ in history})
    centre = max(seen, key=model.played_mean)
    if not refine:
        return Search(centre, float(model.played_mean(centre)), tuple(history))
    ring = neighbourhood(centre, sizes, model)
    played = [ring[j % len(ring)] for j in range(refine)]
    for point in played:
        play(point)
    own: dict[Point, list[float]] = {}
    for p, f in history:
        own.setdefault(p, []).append(f)
    replayed = sorted(set(played))
    best = max(replayed, key=lambda p: sum(own[p]) / len(own[p]))
    return Search(best, float(model.played_mean(best)), tuple(history), centre, tuple(dict.fromkeys(played)), refine)


# ----- the objective from games ---------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A figure a target can name: how it is read from a run's games."""

    name: str
    help: str
    scale: float
    """The distance from the target that costs as much as 1 (squared) in the fitness."""
    is_rate: bool


FIGURES = {
    "seat-win": Figure("seat-win", "share of games won by player 1, who moves first; a tie counts as no win", 0.05, True),
    "length": Figure("length", "mean actions per game (plies)", 5.0, False),
    "score": Figure("score", "mean final score over all seats", 2.0, False),
    "margin": Figure("margin", "mean final score of player 1 minus player 2", 2.0, False),
    "bonus": Figure("bonus", "share of games in which the bonus tile (7x7 square) is taken", 0.05, True),
    "buy-rate": Figure("buy-rate", "share of games in which the watched patch (--watch) is bought", 0.05, True),
}


@dataclass(frozen=True)
class Target:
    """`seat-win=0.5`: a figure and the value wanted; `scale` overrides the figure's own."""

    figure: Figure
    value: float
    scale: float

    @property
    def text(self) -> str:
        return f"{self.figure.name}={self.value:g}"


def parse_target(text: str) -> Target:
    """`FIGURE=VALUE` or `FIGURE=VALUE~SCALE` (the distance that costs 1 in the fitness)."""
    name, sep, rest = text.partition("=")
    name = name.strip()
    if not sep or name not in FIGURES:
        raise UsageError(f"--target '{text}': expected FIGURE=VALUE with FIGURE one of {', '.join(FIGURES)}, "
                         "e.g. seat-win=0.5")
    value_text, _, scale_text = rest.partition("~")
    try:
        value = float(value_text)
        scale = float(scale_text) if scale_text else FIGURES[name].scale
    except ValueError:
        raise UsageError(f"--target '{text}': '{rest}' is not a number (VALUE or VALUE~SCALE)") from None
    if not (math.isfinite(value) and math.isfinite(scale) and scale > 0):
        raise UsageError(f"--target '{text}': the value must be finite and the scale positive")
    if FIGURES[name].is_rate and not 0 <= value <= 1:
        raise UsageError(f"--target '{text}': {name} is a share of games, between 0 and 1")
    return Target(FIGURES[name], value, scale)


def figure_samples(games, figure: str) -> np.ndarray:
    """Per-game values of a figure (toolkit.sim.shards.Games of one edition)."""
    if figure == "seat-win":
        return (games.winner == 0).astype(float)
    if figure == "length":
        return games.plies.astype(float)
    if figure == "score":
        return games.score.mean(axis=1).astype(float)
    if figure == "margin":
        return (games.score[:, 0] - games.score[:, 1]).astype(float)
    if figure == "bonus":
        return (games.bonus >= 0).astype(float)
    if figure == "buy-rate":
        return (games.buy_seat >= 0).astype(float)
    raise KeyError(figure)


def _integer_samples(games, figure: str) -> tuple[np.ndarray, float]:
    """Per-game integers of a figure and the factor to its unit (the mean score sums the seats)."""
    if figure == "score":
        return games.score.sum(axis=1).astype(np.int64), 1.0 / games.score.shape[1]
    return figure_samples(games, figure).astype(np.int64), 1.0


def verdict_z(targets: int) -> float:
    """The z of every target's interval when `targets` are judged together: 95% for one, 1 - 5% /
    targets for more (Bonferroni), so that all the verdicts together hold at the one stated rate."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - 0.05 / max(1, targets) / 2)


def measured(games, targets: Sequence[Target], per_deal: int = 1) -> dict[str, dict]:
    """Each target's figure with its interval (95%, widened for several targets: `verdict_z`), the
    deal as the unit (games in deal order, `per_deal` consecutive games a deal): Wilson's at the
    effective sample size for shares, the cluster standard error for means; each judged against its
    target's tolerance (`judge`)."""
    out = {}
    z = verdict_z(len(targets))
    level = round(100 * (1 - 0.05 / max(1, len(targets))), 4)
    for t in targets:
        x, unit = _integer_samples(games, t.figure.name)
        n = len(x)
        if t.figure.is_rate:
            iv = deal_rate(int(x.sum()), n, per_deal, per_deal_sq(x, per_deal) if per_deal > 1 else 0, z)
        else:
            iv = deal_mean(n, int(x.sum()), per_deal, per_deal_sq(x, per_deal) if per_deal > 1 else 0,
                           int((x * x).sum()), z, scale=unit)
        figure = {**iv.as_dict(), "level": level, "target": t.value}
        figure.update(judge(figure, t, per_deal))
        out[t.figure.name] = figure
    return out


VERDICT_RULE = ("a target is met when the figure's interval (the deal as the unit; 95% for one target, 1 - 5% / k for "
                "k targets, Bonferroni) lies within target +- tolerance (the target's scale), missed when it lies "
                "wholly outside, undecided otherwise; so the chance that any of the run's 'meets' and 'misses' is "
                "wrong is at most 2.5%")


def judge(iv: dict, target: Target, per_deal: int = 1) -> dict:
    """Meets / misses / undecided for a measured figure (VERDICT_RULE), with how many more games would
    decide an undecided one if the estimate held (the interval narrows as one over root games)."""
    low_edge, high_edge = target.value - target.scale, target.value + target.scale
    out = {"tolerance": target.scale, "band": [round(low_edge, 6) + 0.0, round(high_edge, 6) + 0.0],
           "verdict": "undecided", "more_games": None}
    est, low, high, n = iv["estimate"], iv["low"], iv["high"], iv["n"]
    if est is None or low is None or high is None:
        return out
    if low >= low_edge and high <= high_edge:
        return {**out, "verdict": "meets"}
    if high < low_edge or low > high_edge:
        return {**out, "verdict": "misses"}
    # the interval must shrink until it clears the nearer edge on the side(s) that cross one
    if low_edge < est < high_edge:
        need = max(((est - low) / (est - low_edge)) ** 2, ((high - est) / (high_edge - est)) ** 2)
    elif est > high_edge:
        need = ((est - low) / (est - high_edge)) ** 2
    elif est < low_edge:
        need = ((high - est) / (low_edge - est)) ** 2
    else:
        return out  # the estimate sits on an edge: no number of games decides while it stays there
    total = math.ceil(n * need / per_deal) * per_deal
    return {**out, "more_games": int(max(per_deal, total - n))}


def fitness(figures: dict[str, float], targets: Sequence[Target]) -> float:
    """Minus the sum of squared scaled distances from the targets (0 is every target met)."""
    return -sum(((figures[t.figure.name] - t.value) / t.scale) ** 2 for t in targets)


@dataclass(frozen=True)
class TuneRequest:
    """A validated `patchwork tune`."""

    base: Edition
    settings: tuple[setpath.Setting, ...]
    targets: tuple[Target, ...]
    seating: Seating
    """The bots as seated from the `--bots` text (toolkit.sim.botspec.seat_bots)."""
    seed: int
    budget: int
    eval_deals: int
    """Deals of one evaluation (each played per_deal times)."""
    final_deals: int
    watch: str | None = None
    refine: int = 0
    """The last evaluations of the budget, spent re-playing the best point and its neighbours."""


def check(base, settings: Sequence[setpath.Setting], targets: Sequence[Target], watch: str | None) -> None:
    if not settings:
        raise UsageError("--set: name at least one key to search, e.g. --set starting_buttons=3..8")
    if len({s.path for s in settings}) != len(settings):
        raise UsageError("--set: the same key is set twice")
    if not targets:
        raise UsageError("--target: name at least one, e.g. --target seat-win=0.5")
    if len({t.figure.name for t in targets}) != len(targets):
        raise UsageError("--target: each figure is named once")
    from toolkit.families import family_of

    workable = ", ".join(_workable_figures(base))
    seated = [t.figure.name for t in targets if t.figure.name in ("seat-win", "margin")]
    if seated and not family_of(base).info.head_to_head:
        raise UsageError(f"--target {seated[0]}: {family_of(base).info.title} has no seats playing head to head; "
                         f"targets that work: {workable}")
    if any(t.figure.name == "bonus" for t in targets) and not _has_bonus(base):
        raise UsageError(f"--target bonus: '{base.name}' has no bonus tile, so no game can take one; "
                         f"targets that work: {workable}")
    if any(t.figure.name == "buy-rate" for t in targets) and watch is None:
        raise UsageError("--target buy-rate: say which patch with --watch PATCH")
    if watch is not None and watch not in [p.id for p in base.all_patches()]:
        raise UsageError(f"--watch {watch}: '{base.name}' has no patch {watch} (patches: {setpath.patch_ids_text(base)})")


def _has_bonus(edition) -> bool:
    from toolkit.families import family_of

    # the bonus tile is a time-track rule (a family without a time track has none to read)
    return family_of(edition).info.has_time_track and edition.timetrack_rules.bonus is not None


def _workable_figures(edition) -> list[str]:
    from toolkit.families import family_of

    head_to_head = family_of(edition).info.head_to_head
    return [name for name in FIGURES
            if (head_to_head or name not in ("seat-win", "margin")) and (name != "bonus" or _has_bonus(edition))]


def point_settings(request: TuneRequest, point: Point) -> dict:
    return {s.path: s.values[i] for s, i in zip(request.settings, point)}


def default_refine(budget: int) -> int:
    """A quarter of the budget re-plays the best point's neighbourhood (none under 4 evaluations)."""
    return budget // 4


def tune(request: TuneRequest, workers: int = 1, scheduler: str | None = None,
         progress: Callable[[int], None] | None = None) -> dict:
    """Search, re-play the best point's neighbourhood, then play the chosen point on fresh deals; the
    document's body."""
    editions: dict[Point, Edition] = {}
    seen_figures: list[dict[str, float]] = []

    def edition_of(point: Point):
        if point not in editions:
            editions[point] = setpath.apply_all(request.base, point_settings(request, point))
        return editions[point]

    def evaluate(point: Point, i: int) -> float:
        # evaluation i plays deals i*d .. (i+1)*d: every evaluation sees deals of its own
        start = i * request.eval_deals
        from toolkit.workbench import runner  # the simulator loads only once the options hold

        played = runner.play((edition_of(point),), request.seating, request.seed, start, start + request.eval_deals,
                             workers, scheduler, watch=request.watch)
        games = played.per_game[0]
        if progress:
            progress(played.games)
        figures = {t.figure.name: float(figure_samples(games, t.figure.name).mean()) for t in request.targets}
        seen_figures.append(figures)
        return fitness(figures, request.targets)

    result = search([len(s.values) for s in request.settings], evaluate, request.budget, request.seed,
                    refine=request.refine)
    fresh = request.budget * request.eval_deals  # deals no evaluation played
    from toolkit.workbench import runner

    played = runner.play((edition_of(result.best),), request.seating, request.seed, fresh, fresh + request.final_deals,
                         workers, scheduler, watch=request.watch)
    if progress:
        progress(played.games)
    games = played.per_game[0]
    figures = measured(games, request.targets, played.per_deal)
    best = point_settings(request, result.best)
    counts: dict[Point, int] = {}
    for p, _ in result.history:
        counts[p] = counts.get(p, 0) + 1

    def settings_json(point: Point) -> dict:
        return {k: setpath.json_value(v) for k, v in point_settings(request, point).items()}

    def own(point: Point) -> dict:
        runs = [(f, seen_figures[i]) for i, (p, f) in enumerate(result.history) if p == point]
        return {"set": settings_json(point), "evaluations": len(runs),
                "mean_fitness": round(sum(f for f, _ in runs) / len(runs), 6),
                "figures": {t.figure.name: round(sum(fig[t.figure.name] for _, fig in runs) / len(runs), 6)
                            for t in request.targets}}

    searched = len(result.history) - result.refine_evaluations
    games_each = request.eval_deals * played.per_deal
    refine_text = (f"; the last {result.refine_evaluations} re-play the model's best point and its neighbours "
                   "(every key within one step), and the point chosen is " + CHOICE_RULE
                   if result.refine_evaluations else "; the best point by the model's tuple means")
    return {
        "keys": [{"path": s.path, "values": [setpath.json_value(v) for v in s.values]} for s in request.settings],
        "space": math.prod(len(s.values) for s in request.settings),
        "targets": [{"figure": t.figure.name, "value": t.value, "scale": t.scale, "meaning": t.figure.help}
                    for t in request.targets],
        "fitness_rule": "minus the sum over targets of ((figure - target) / scale)^2; 0 meets every target",
        "verdict_rule": VERDICT_RULE,
        "algorithm": (f"NTBEA: 1-tuples, 2-tuples and the {len(request.settings)}-tuple; UCB constant 2 (fitness units), "
                      f"50 neighbours per iteration, each key mutating with chance 1/{len(request.settings)}; "
                      f"{request.budget} evaluations of {games_each} games each, each on deals of its own: "
                      f"{searched} search{refine_text}"),
        "budget": request.budget,
        "evaluation_games": games_each,
        "points_tried": len(counts),
        "best": {"set": {k: setpath.json_value(v) for k, v in best.items()},
                 "model_fitness": round(result.best_model_fitness, 6),
                 "evaluations": counts.get(result.best, 0),
                 "mean_fitness": own(result.best)["mean_fitness"]},
        "refinement": ({"evaluations": result.refine_evaluations, "centre": settings_json(result.centre),
                        "rule": CHOICE_RULE, "points": [own(p) for p in result.refined]}
                       if result.centre is not None else
                       {"evaluations": 0, "rule": "the point whose tuples' mean fitness in the model is best"}),
        "validation": {"deals": f"{fresh}..{fresh + request.final_deals - 1} (fresh: no evaluation played them)",
                       "games": played.games, "deal_count": request.final_deals, "per_deal": played.per_deal,
                       "figures": figures,
                       "fitness": round(fitness({k: v["estimate"] for k, v in figures.items()}, request.targets), 6)},
        "history": [{"set": settings_json(p), "fitness": round(f, 6),
                     "phase": "search" if i < searched else "neighbours",
                     "figures": {k: round(v, 6) for k, v in seen_figures[i].items()}}
                    for i, (p, f) in enumerate(result.history)],
    }
