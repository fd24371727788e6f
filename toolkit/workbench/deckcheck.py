"""`patchwork deck check`: play a custom deck against its base with bots: per-patch buy rate and
buyer advantage, and an optional re-pricing loop that moves the worst-priced patches into a band.
Only editions whose family prices patches are checked.

Buyer advantage of a patch (toolkit.workbench.advantage) = the win rate of the players who bought
it minus the win rate of all buyers of all patches in the same games (the deck's baseline), so a
strong bot that buys more patches does not make every patch look good. A patch well above the
baseline is cheap for what it gives, one well below is dear. Patches bought fewer than `min_buys`
times carry no reliable advantage; one bought in fewer than LOW_BUY_RATE of games is taken as too
dear.

Re-pricing (`tune`) is this module's own small estimate, not a full fair-price search: each
round replays the variant on the same deal seeds (so rounds are paired and differ only by the
prices), moves the `per_round` worst patches outside the band by one button towards it, and
stops when every patch lies inside the band or the rounds run out. A patch found too cheap at
one price and too dear at the next is left alone from then on (its fair price lies between).

Everything this module needs from the simulator goes through `play` below.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from toolkit.errors import UsageError
from toolkit.workbench.advantage import buyer_advantage

DEFAULT_MATCHUPS = ("greedy,greedy", "greedy,mcts:200")
DEFAULT_GAMES = (400, 40)
"""Games per matchup, by default: greedy games are ~100x faster than MCTS ones."""
DEFAULT_BAND = 0.10
DEFAULT_MIN_BUYS = 20
LOW_BUY_RATE = 0.15


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

    @property
    def buy_rate(self) -> float:
        return self.bought / self.games if self.games else 0.0

    def verdict(self, band: float, min_buys: int) -> str:
        """`ok`, `cheap` (advantage above the band), `dear` (below it, or rarely bought) or
        `unsure` (too few buys to tell)."""
        if self.buy_rate < LOW_BUY_RATE:
            return "dear"
        if self.bought < min_buys or self.advantage is None:
            return "unsure"
        if self.advantage > band:
            return "cheap"
        if self.advantage < -band:
            return "dear"
        return "ok"

    def as_dict(self, band: float, min_buys: int) -> dict:
        return {"id": self.id, "cost": self.cost, "bought": self.bought, "games": self.games,
                "buy_rate": round(self.buy_rate, 4),
                "buyer_win_rate": round(self.buyer_wins / self.bought, 4) if self.bought else None,
                "advantage": None if self.advantage is None else round(self.advantage, 4),
                "verdict": self.verdict(band, min_buys)}


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
    bracketed: dict[str, list[int]] = field(default_factory=dict)
    """Patches whose fair price lies between two neighbouring prices, left at the last one."""

    def out_of_band(self) -> list[PatchPlay]:
        return [p for p in self.patches if p.verdict(self.band, self.min_buys) in ("cheap", "dear")]

    def as_dict(self) -> dict:
        return {
            "variant": self.variant, "base": self.base, "seed": self.seed,
            "band": self.band, "min_buys": self.min_buys, "low_buy_rate": LOW_BUY_RATE,
            "advantage": "buyer win rate minus the win rate of all buyers in the same games",
            "matchups": [{"bots": m.bots, "games": m.games, "base": m.base, "variant": m.variant,
                          "differences": m.differences} for m in self.matchups],
            "patches": [p.as_dict(self.band, self.min_buys) for p in self.patches],
            "out_of_band": [p.id for p in self.out_of_band()],
            "tune": {"rounds": self.rounds, "changes": list(self.changes),
                     "bracketed": self.bracketed},
        }


def _headline(figures: dict) -> dict:
    return {
        "win_rate": {b["bot"]: b["win_rate"]["estimate"] for b in figures["bots"]},
        "mean_score": {b["bot"]: b["mean_score"]["estimate"] for b in figures["bots"]},
        "plies": figures["game_length"]["plies"]["estimate"],
        "bonus_taken": figures["bonus"]["taken"]["estimate"],
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
                a = acc[r["id"]] = {"cost": r["cost"], "bought": 0, "games": 0, "wins": 0, "adv": 0.0}
                order.append(r["id"])
            wins = _buyer_wins(r)
            a["bought"] += r["bought"]
            a["games"] += figures["games"]
            a["wins"] += wins
            if r["bought"]:
                a["adv"] += buyer_advantage(r["bought"], wins / r["bought"], baseline)
    return tuple(PatchPlay(pid, a["cost"], a["bought"], a["games"], a["wins"],
                           a["adv"] / a["bought"] if a["bought"] else None)
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


def tune(variant_path: Path, base: str, matchups: Sequence[tuple[str, int]], seed: int,
         band: float = DEFAULT_BAND, min_buys: int = DEFAULT_MIN_BUYS, rounds: int = 5,
         per_round: int = 3, only: set[str] | None = None,
         on_round: Callable[[int, CheckReport], None] | None = None,
         progress: Progress | None = None) -> CheckReport:
    """Re-price out-of-band patches one button at a time, rewriting the variant's patch set,
    then check the result against the base."""
    if rounds < 1 or per_round < 1:
        raise UsageError("--rounds and --per-round must be at least 1")
    deck_path = variant_patch_set(variant_path)
    ref = str(variant_path)
    changes: list[dict] = []
    tried: dict[str, set[int]] = {}
    """Prices each patch has been played at: a move back to one of them would oscillate."""
    bracketed: dict[str, list[int]] = {}
    done = 0
    for number in range(1, rounds + 1):
        report = check(ref, base, matchups, seed, band, min_buys, with_base=False, only=only,
                       progress=progress)
        if on_round:
            on_round(number, report)
        for p in report.patches:
            tried.setdefault(p.id, set()).add(p.cost)
        worst = sorted(report.out_of_band(),
                       key=lambda p: (-(abs(p.advantage) if p.advantage is not None else 1.0), p.id))
        moves = {}
        for p in worst:
            step = 1 if p.verdict(band, min_buys) == "cheap" else -1
            if p.cost + step < 0 or p.id in bracketed:
                continue
            if p.cost + step in tried[p.id]:
                # one price is too cheap and the next too dear: the fair price lies between them
                bracketed[p.id] = sorted((p.cost, p.cost + step))
                continue
            moves[p.id] = p.cost + step
            changes.append({"round": number, "id": p.id, "from": p.cost, "to": p.cost + step,
                            "verdict": p.verdict(band, min_buys), "buy_rate": round(p.buy_rate, 4),
                            "advantage": None if p.advantage is None else round(p.advantage, 4)})
            if len(moves) == per_round:
                break
        if not moves:
            break
        done = number
        summary = ", ".join(f"{c['id']} {c['from']}->{c['to']}" for c in changes[-len(moves):])
        rewrite_costs(deck_path, moves,
                      f"Re-priced by `patchwork deck check --tune` round {number} (seed {seed}, "
                      f"band {band}): {summary}.")
    final = check(ref, base, matchups, seed, band, min_buys, with_base=True, only=only,
                  progress=progress)
    return replace(final, changes=tuple(changes), rounds=done, bracketed=bracketed)
