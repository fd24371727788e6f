"""`patchwork deck check`: play a custom deck against its base with bots: per-patch buy rate and
buyer advantage, and an optional re-pricing loop that moves the worst-priced patches into a band.
Only editions whose family prices patches are checked.

Buyer advantage of a patch (toolkit.workbench.advantage) = the win rate of the players who bought
it minus the win rate of all buyers of all patches in the same games (the deck's baseline), so a
strong bot that buys more patches does not make every patch look good; pooled over the matchups,
weighted by purchases. Its 95% interval uses the binomial standard error of the buyers' win rate
(the baseline rests on every purchase of the deck and its own error is left out).

One rule gives every verdict. A patch bought in fewer than LOW_BUY_RATE of games is `rarely
bought` (its advantage, measured only where a bot chose it, says little about its price); one with
fewer than `min_buys` purchases is `unsure`. Every other patch is tested for lying outside the
band (advantage beyond +band or below -band, two-sided z-test on the distance to the nearer band
edge), and the whole deck's tests are corrected together by Holm's step-down method (family-wise
error 5%): `cheap` or `dear` when significantly outside the band, `leans cheap` / `leans dear`
when the estimate is outside but not significantly, `ok` otherwise.

Re-pricing (`tune`) moves only the significantly out-of-band patches, all of them at once, to
where a price model says their advantage is 0: the model is one line per patch of advantage
against cost sharing a deck-wide slope (fitted jointly on every price a patch has been played at
in earlier rounds, all on the same deal seeds); before a slope can be fitted the deck is played
once with those patches one button towards the band (a probe, then undone). A round whose deck is worse than the one before (more patches significantly out of
band, or as many and further out) is undone and tuning stops, saying so.

Everything this module needs from the simulator goes through `play` below.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from toolkit.errors import UsageError
from toolkit.stats import Z95, wilson
from toolkit.workbench.advantage import buyer_advantage

DEFAULT_MATCHUPS = ("greedy,greedy", "greedy,mcts:200")
DEFAULT_GAMES = (400, 40)
"""Games per matchup, by default: greedy games are ~100x faster than MCTS ones."""
DEFAULT_BAND = 0.05
"""About one button for greedy bots on classic (P12 3->6 moved its advantage by -0.145, P21 5->2 by +0.157)."""
DEFAULT_MIN_BUYS = 20
LOW_BUY_RATE = 0.15
FAMILY_ERROR = 0.05
"""Holm's family-wise error over the patches judged together."""
MAX_STEP = 4
"""Most buttons one round moves a patch."""
CORRECTION = ("Holm step-down over the patches judged (family-wise error 5%); each test: two-sided z-test of the "
              "advantage against the nearer band edge")


def play(refs: Sequence[str], bots: str, games: int, seed: int,
         progress: Callable[[int, int], None] | None = None) -> dict:
    """Play every edition in `refs` on the same deal seeds with the simulator; the balance
    document (base figures, variant figures and paired differences). The one use of sim."""
    from toolkit.sim import experiment

    request = experiment.prepare(list(refs), bots, games, seed)
    outcome = experiment.run(request, progress)
    return experiment.balance_document(request, outcome, f"deck check ({bots})")


@dataclass(frozen=True)
class PatchPlay:
    """How one patch fared over the games of every matchup."""

    id: str
    cost: int
    bought: int
    games: int
    buyer_wins: int
    advantage: float | None
    """Buys-weighted mean over matchups of (buyer win rate - baseline); None if never bought."""
    se: float | None = None
    """Standard error of `advantage` (binomial, pooled over matchups)."""

    @property
    def buy_rate(self) -> float:
        return self.bought / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float] | None:
        if self.advantage is None or self.se is None:
            return None
        return self.advantage - Z95 * self.se, self.advantage + Z95 * self.se

    def p_value(self, band: float) -> float | None:
        """Two-sided p of "inside the band" against the nearer band edge; None when not judged."""
        if self.advantage is None or self.se is None:
            return None
        excess = max(self.advantage - band, -band - self.advantage, 0.0)
        if excess == 0.0:
            return 1.0
        if self.se == 0:
            return 0.0
        return min(1.0, math.erfc(excess / self.se / math.sqrt(2)))


def holm(p_values: dict[str, float]) -> dict[str, float]:
    """Holm's step-down adjusted p-values."""
    order = sorted(p_values, key=lambda k: (p_values[k], k))
    m, running, out = len(order), 0.0, {}
    for i, key in enumerate(order):
        running = max(running, min(1.0, (m - i) * p_values[key]))
        out[key] = running
    return out


def verdicts(patches: Sequence[PatchPlay], band: float, min_buys: int) -> dict[str, dict]:
    """The one rule (see the module's docstring): label and Holm-adjusted p of every patch."""
    out: dict[str, dict] = {}
    judged: dict[str, float] = {}
    for p in patches:
        if p.buy_rate < LOW_BUY_RATE:
            out[p.id] = {"verdict": "rarely bought", "p_adjusted": None}
        elif p.bought < min_buys or p.advantage is None or p.se is None:
            out[p.id] = {"verdict": "unsure", "p_adjusted": None}
        else:
            judged[p.id] = p.p_value(band)
    adjusted = holm(judged)
    for p in patches:
        if p.id not in judged:
            continue
        side = "cheap" if p.advantage > band else "dear" if p.advantage < -band else None
        q = adjusted[p.id]
        verdict = "ok" if side is None else side if q < FAMILY_ERROR else f"leans {side}"
        out[p.id] = {"verdict": verdict, "p_adjusted": round(q, 6)}
    return out


@dataclass(frozen=True)
class Matchup:
    bots: str
    games: int
    base: dict
    """The base edition's headline figures (bot win rates, mean scores, game length)."""
    variant: dict
    differences: list[dict]
    """Paired differences variant - base (empty when the base was not played)."""


@dataclass(frozen=True)
class CheckReport:
    variant: str
    base: str
    seed: int
    band: float
    min_buys: int
    matchups: tuple[Matchup, ...]
    patches: tuple[PatchPlay, ...]
    changes: tuple[dict, ...] = field(default=())
    rounds: int = 0
    stopped: str = ""
    """Why tuning stopped."""

    def verdicts(self) -> dict[str, dict]:
        return verdicts(self.patches, self.band, self.min_buys)

    def out_of_band(self) -> list[PatchPlay]:
        """The patches significantly outside the band (after the correction)."""
        v = self.verdicts()
        return [p for p in self.patches if v[p.id]["verdict"] in ("cheap", "dear")]

    def patch_dict(self, p: PatchPlay, verdict: dict) -> dict:
        iv = p.interval()
        buys, wins = wilson(p.bought, p.games), wilson(p.buyer_wins, p.bought)
        return {"id": p.id, "cost": p.cost, "bought": p.bought, "games": p.games,
                "buy_rate": round(p.buy_rate, 4),
                "buy_rate_interval": None if buys.low is None else [round(buys.low, 4), round(buys.high, 4)],
                "buyer_win_rate": round(p.buyer_wins / p.bought, 4) if p.bought else None,
                "buyer_win_rate_interval": None if wins.low is None else [round(wins.low, 4), round(wins.high, 4)],
                "advantage": None if p.advantage is None else round(p.advantage, 4),
                "low": None if iv is None else round(iv[0], 4), "high": None if iv is None else round(iv[1], 4),
                "p_adjusted": verdict["p_adjusted"], "verdict": verdict["verdict"]}

    def as_dict(self) -> dict:
        v = self.verdicts()
        return {
            "variant": self.variant, "base": self.base, "seed": self.seed,
            "band": self.band, "min_buys": self.min_buys, "low_buy_rate": LOW_BUY_RATE,
            "advantage": "buyer win rate minus the win rate of all buyers in the same games; 95% interval from the "
                         "binomial standard error of the buyers' win rate",
            "correction": CORRECTION,
            "matchups": [{"bots": m.bots, "games": m.games, "base": m.base, "variant": m.variant,
                          "differences": m.differences} for m in self.matchups],
            "patches": [self.patch_dict(p, v[p.id]) for p in self.patches],
            "out_of_band": [p.id for p in self.out_of_band()],
            "tune": {"rounds": self.rounds, "changes": list(self.changes), "stopped": self.stopped},
        }


def _headline(figures: dict) -> dict:
    def ends(iv: dict) -> list:
        return [iv["low"], iv["high"]]

    return {
        "win_rate": {b["bot"]: b["win_rate"]["estimate"] for b in figures["bots"]},
        "mean_score": {b["bot"]: b["mean_score"]["estimate"] for b in figures["bots"]},
        "plies": figures["game_length"]["plies"]["estimate"],
        "bonus_taken": figures["bonus"]["taken"]["estimate"],
        "intervals": {  # 95%, games as units: Wilson for rates, normal for means (the simulator's own)
            "win_rate": {b["bot"]: ends(b["win_rate"]) for b in figures["bots"]},
            "mean_score": {b["bot"]: ends(b["mean_score"]) for b in figures["bots"]},
            "plies": ends(figures["game_length"]["plies"]),
            "bonus_taken": ends(figures["bonus"]["taken"]),
        },
    }


def _buyer_wins(row: dict) -> int:
    """Games the buyers of a patch won: the simulator gives the rate (to 6 decimals) and the
    number of buys, which recover the count exactly."""
    return round(row["buyer_win_rate"]["estimate"] * row["bought"]) if row["bought"] else 0


def _patch_plays(per_matchup: list[dict], only: set[str] | None) -> tuple[PatchPlay, ...]:
    """Pool each patch over the matchups' figures."""
    acc: dict[str, dict] = {}
    order: list[str] = []
    for figures in per_matchup:
        rows = figures["patches"]
        bought_all = sum(r["bought"] for r in rows)
        won_all = sum(_buyer_wins(r) for r in rows)
        baseline = won_all / bought_all if bought_all else 0.0
        for r in rows:
            if only is not None and r["id"] not in only:
                continue
            a = acc.get(r["id"])
            if a is None:
                a = acc[r["id"]] = {"cost": r["cost"], "bought": 0, "games": 0, "wins": 0, "adv": 0.0, "var": 0.0}
                order.append(r["id"])
            wins = _buyer_wins(r)
            a["bought"] += r["bought"]
            a["games"] += figures["games"]
            a["wins"] += wins
            if r["bought"]:
                rate = wins / r["bought"]
                a["adv"] += buyer_advantage(r["bought"], rate, baseline)
                a["var"] += r["bought"] * rate * (1 - rate)
    return tuple(PatchPlay(pid, a["cost"], a["bought"], a["games"], a["wins"],
                           a["adv"] / a["bought"] if a["bought"] else None,
                           math.sqrt(a["var"]) / a["bought"] if a["bought"] >= 2 else None)
                 for pid, a in ((pid, acc[pid]) for pid in order))


Progress = Callable[[str, int, int], None]
"""progress(what is playing, games done, games in that run)."""


def check(variant: str, base: str, matchups: Sequence[tuple[str, int]], seed: int,
          band: float = DEFAULT_BAND, min_buys: int = DEFAULT_MIN_BUYS, with_base: bool = True,
          only: set[str] | None = None, progress: Progress | None = None) -> CheckReport:
    """Play the variant (and the base, on the same deals) in every matchup."""
    if not 0 < band < 0.5:
        raise UsageError(f"--band must lie between 0 and 0.5 (a win-rate difference), got {band}")
    if min_buys < 1:
        raise UsageError(f"--min-buys must be at least 1, got {min_buys}")
    from toolkit.families import require
    from toolkit.specs import load_edition

    for ref in (variant, base):
        require(load_edition(ref), "prices_patches", "deck check")
    results = []
    variant_figures = []
    for bots, games in matchups:
        refs = [base, variant] if with_base else [variant]
        label = f"{bots} ({'base and deck' if with_base else 'deck'})"
        doc = play(refs, bots, games, seed,
                   (lambda done, total, label=label: progress(label, done, total)) if progress else None)
        if with_base:
            v = doc["variants"][0]
            results.append(Matchup(bots, games, _headline(doc["base"]["figures"]),
                                   _headline(v["figures"]), v["differences"]))
            variant_figures.append(v["figures"])
        else:
            results.append(Matchup(bots, games, {}, _headline(doc["base"]["figures"]), []))
            variant_figures.append(doc["base"]["figures"])
    return CheckReport(variant, base, seed, band, min_buys, tuple(results),
                       _patch_plays(variant_figures, only))


# ----- re-pricing -----------------------------------------------------------------------------


def variant_patch_set(variant_path: Path) -> Path:
    """The patch-set file a variant names in `patches:` (as `deck generate` writes it)."""
    import yaml

    try:
        tree = yaml.safe_load(variant_path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise UsageError(f"cannot read variant {variant_path}: {error}") from None
    ref = tree.get("patches") if isinstance(tree, dict) else None
    if not isinstance(ref, str) or not ref.endswith((".yaml", ".yml")):
        raise UsageError(f"--tune rewrites the patch-set file the variant names in `patches:`; "
                         f"{variant_path} names none (write one with `patchwork deck generate`)")
    path = (variant_path.parent / ref)
    if not path.is_file():
        raise UsageError(f"{variant_path}: patches file {ref} does not exist")
    return path


def rewrite_costs(deck_path: Path, costs: dict[str, int], note: str) -> None:
    """Set new costs in a patch-set file and append a note to its provenance."""
    import yaml

    from toolkit.decks.generate import patch_set_text
    from toolkit.fileio import atomic_write_text
    from toolkit.geometry.shape import Shape
    from toolkit.specs.models import Patch

    tree = yaml.safe_load(deck_path.read_text(encoding="utf-8"))
    patches = []
    duplicates = {}
    for p in tree["patches"]:
        patch = Patch(id=p["id"], shape=Shape.parse(p["shape"]), cost=p.get("cost", 0),
                      time=p.get("time", 0), income=p.get("income", 0), name=p.get("name"),
                      colour=p.get("colour"), tag=p.get("tag"))
        if patch.id in costs:
            patch = replace(patch, cost=costs[patch.id])
        if p.get("duplicate_of"):
            duplicates[patch.id] = p["duplicate_of"]
        patches.append(patch)
    provenance = (tree.get("provenance") or "").rstrip() + " " + note
    atomic_write_text(deck_path, patch_set_text(tree["name"], tree.get("title") or tree["name"],
                                                provenance.strip(), patches, duplicates))


def _score(report: CheckReport) -> tuple[int, float]:
    """How far a deck is from its band: patches significantly outside, then their summed distance."""
    out = report.out_of_band()
    return len(out), sum(max(p.advantage - report.band, -report.band - p.advantage) for p in out)


def joint_slope(history: dict[str, list[tuple[int, float]]]) -> float | None:
    """The deck-wide slope of advantage against cost: least squares with one intercept per patch
    over every (cost, advantage) a patch was played at; None until some patch has two prices, or
    when the fit does not fall with the cost."""
    sxy = sxx = 0.0
    for points in history.values():
        costs = {c for c, _ in points}
        if len(costs) < 2:
            continue
        mc = sum(c for c, _ in points) / len(points)
        ma = sum(a for _, a in points) / len(points)
        sxy += sum((c - mc) * (a - ma) for c, a in points)
        sxx += sum((c - mc) ** 2 for c, _ in points)
    if sxx == 0 or sxy >= 0:
        return None
    return sxy / sxx


def repricing(report: CheckReport, slope: float | None, per_round: int) -> dict[str, int]:
    """New costs of the significantly out-of-band patches (worst first, at most `per_round`)."""
    verdict = report.verdicts()
    worst = sorted(report.out_of_band(), key=lambda p: (-abs(p.advantage), p.id))[:per_round]
    moves = {}
    for p in worst:
        direction = 1 if verdict[p.id]["verdict"] == "cheap" else -1
        step = direction if slope is None else round(-p.advantage / slope)
        step = direction * min(MAX_STEP, max(1, abs(step)))
        if max(0, p.cost + step) != p.cost:
            moves[p.id] = max(0, p.cost + step)
    return moves


def tune(variant_path: Path, base: str, matchups: Sequence[tuple[str, int]], seed: int,
         band: float = DEFAULT_BAND, min_buys: int = DEFAULT_MIN_BUYS, rounds: int = 5,
         per_round: int = 33, only: set[str] | None = None,
         on_round: Callable[[int, CheckReport], None] | None = None,
         progress: Progress | None = None) -> CheckReport:
    """Re-price the significantly out-of-band patches jointly from the price model, rewriting the
    variant's patch set, round by round; undo a round that makes the deck worse and stop; then
    check the result against the base."""
    if rounds < 1 or per_round < 1:
        raise UsageError("--rounds and --per-round must be at least 1")
    deck_path = variant_patch_set(variant_path)
    ref = str(variant_path)
    changes: list[dict] = []
    history: dict[str, list[tuple[int, float]]] = {}

    def record(report: CheckReport) -> None:
        for p in report.patches:
            if p.advantage is not None and p.buy_rate >= LOW_BUY_RATE:
                history.setdefault(p.id, []).append((p.cost, p.advantage))

    report = check(ref, base, matchups, seed, band, min_buys, with_base=False, only=only, progress=progress)
    record(report)
    if on_round:
        on_round(0, report)
    done, stopped = 0, f"stopped after {rounds} round(s), the most asked for"
    for number in range(1, rounds + 1):
        slope = joint_slope(history)
        if slope is None and report.out_of_band():
            # no slope yet: play the deck once with the out-of-band patches one button towards the
            # band (a probe, not a round) to fit one, then put the prices back
            probe = repricing(report, None, per_round)
            if probe:
                by_id = {p.id: p for p in report.patches}
                rewrite_costs(deck_path, probe, f"Probe of `patchwork deck check --tune` round {number}: "
                              + ", ".join(f"{pid} {by_id[pid].cost}->{cost}" for pid, cost in probe.items()) + ".")
                record(check(ref, base, matchups, seed, band, min_buys, with_base=False, only=only, progress=progress))
                rewrite_costs(deck_path, {pid: by_id[pid].cost for pid in probe}, "Probe undone.")
                slope = joint_slope(history)
        moves = repricing(report, slope, per_round)
        if not moves:
            stopped = ("no patch is significantly outside the band" if not report.out_of_band()
                       else "the out-of-band patches cannot move (cost 0)")
            break
        verdict = report.verdicts()
        by_id = {p.id: p for p in report.patches}
        rewrite_costs(deck_path, moves,
                      f"Re-priced by `patchwork deck check --tune` round {number} (seed {seed}, band {band}): "
                      + ", ".join(f"{pid} {by_id[pid].cost}->{cost}" for pid, cost in moves.items()) + ".")
        after = check(ref, base, matchups, seed, band, min_buys, with_base=False, only=only, progress=progress)
        if on_round:
            on_round(number, after)
        if _score(after) > _score(report):
            rewrite_costs(deck_path, {pid: by_id[pid].cost for pid in moves},
                          f"Round {number} undone: it left the deck further from the band.")
            stopped = (f"round {number} made the deck worse ({_score(after)[0]} patches significantly out of band "
                       f"against {_score(report)[0]}): its moves were undone and tuning stopped")
            break
        for pid, cost in moves.items():
            p = by_id[pid]
            changes.append({"round": number, "id": pid, "from": p.cost, "to": cost,
                            "verdict": verdict[pid]["verdict"], "buy_rate": round(p.buy_rate, 4),
                            "advantage": round(p.advantage, 4),
                            "slope": None if slope is None else round(slope, 4)})
        record(after)
        report, done = after, number
    final = check(ref, base, matchups, seed, band, min_buys, with_base=True, only=only, progress=progress)
    return replace(final, changes=tuple(changes), rounds=done, stopped=stopped)
