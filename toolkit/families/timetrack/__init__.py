"""The time-track rules family (classic, Christmas, anniversary with Automa, Express) as the rest
of the toolkit sees it: one registered RulesFamily and its capability record."""
from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.errors import UsageError
from toolkit.families.base import FamilyInfo, RulesFamily, Seating, SweepKey, WarmUp, register_family, sweep_keys
from toolkit.families.timetrack import bank
from toolkit.specs.models import Edition, Family, TimeTrackRules

if TYPE_CHECKING:
    import numpy as np


def _results():
    """The result figures (numpy, toolkit.stats) load when a run is summed, not when the family is asked
    about seats or capabilities (the command line refuses options through it)."""
    from toolkit.families.timetrack import results

    return results



SEATS = 2

INFO = FamilyInfo(
    name=Family.TIME_TRACK.value,
    title="time-track",
    editions="classic, classic-revised, christmas, anniversary, express",
    fixed_seats=SEATS,
    seat_rule="two seats; each deal is played twice with the seats swapped, or the player bot moves first "
              "against the Automa",
    prices_patches=True,
    head_to_head=True,
    has_solo_opponent=True,
    has_time_track=True,
    result_fields=("seat0_win", "score_seat0", "score_seat1", "margin", "plies", "bonus"),
    test_figures=("seat-win", "score", "margin"),
    # The keys toolkit.games.timetrack.tables reads: every scalar rule (from its field in
    # toolkit.specs.models), then the parts of built rules and of patches.
    sweepable=(
        *sweep_keys(Edition, TimeTrackRules),
        SweepKey("bonus.points", 0, 999, help="points of the k x k bonus tile"),
        SweepKey("bonus.square_size", 1, 9, help="side of the bonus square"),
        SweepKey("time_track.income_marks", 1, 500, is_list=True, help="spaces with an income mark"),
        SweepKey("time_track.leather_patches", 1, 500, is_list=True, help="spaces with a leather patch"),
        SweepKey("patches.*.cost", 0, 999, help="a patch's price in buttons"),
        SweepKey("patches.*.time", 0, 999, help="a patch's time"),
        SweepKey("patches.*.income", 0, 999, help="buttons printed on a patch"),
    ),
    components=("tiles", "boards", "tokens", "rules", "kit", "automa"),
    kit_editions=("classic", "christmas", "express"),
    default_edition="classic",
    default_bots="random,random",
    balance_bots="greedy,greedy",
    strong_bot="mcts:200",
    hint_bot="mcts",
    action_example="buy P17",
)


class TimeTrackFamily(RulesFamily):
    family = Family.TIME_TRACK
    info = INFO
    kernel_modules = ("toolkit.games.timetrack.kernel",)
    loop_modules = ("toolkit.families.timetrack.loop",)

    def engine(self):
        from toolkit.games.timetrack import ENGINE

        return ENGINE

    def seats(self, edition: Edition, players: int | None) -> int:
        if players is not None and players != SEATS:
            raise UsageError(f"{edition.name} is played by 2 seats (Automa takes the second seat in solo play), got {players}")
        return SEATS

    def solo_opponent(self, edition: Edition):
        return edition.timetrack_rules.automa

    def track_facts(self, edition: Edition) -> dict | None:
        track = edition.timetrack_rules.track
        return {
            "layout": edition.timetrack_rules.track_layout or track.id,
            "final_space": track.final_space,
            "income_marks": list(track.income_marks),
            "leather_patches": list(track.leather_patches),
        }

    def button_tiles(self, edition: Edition) -> tuple[tuple[int, int], ...]:
        return bank.button_tiles(edition.timetrack_rules.track)

    def shapes_in_play(self, game) -> list[tuple[str, str]]:
        return [] if game.is_over else [("market", pid) for pid in game.window]

    def quilt_cells(self, game, seat: int) -> dict[tuple[int, int], str]:
        return {(r, c): mark for r, row in enumerate(game.quilt_text(seat)) for c, mark in enumerate(row) if mark != "."}

    def shapes(self, edition: Edition) -> tuple[tuple[str, object], ...]:
        return tuple((p.id, p.shape) for p in edition.all_patches())

    def view(self, game):
        from toolkit.families.timetrack.view import view

        return view(game)

    def views(self, game):
        from toolkit.families.timetrack.view import views

        return views(game)

    def hinter(self, edition: Edition):
        from toolkit.families.timetrack.hint import SearchHint

        return SearchHint()

    def default_bots(self, edition: Edition) -> str:
        return self.info.default_bots

    def seating(self, bots: tuple, edition: Edition, text: str) -> Seating:
        """Two seats; with `automa`, the other bot takes seat 0 and moves first (the Automa rules)
        whichever order the names were given in; otherwise each deal is played twice, seats swapped."""
        from toolkit.bots.registry import AUTOMA

        if len(bots) != SEATS:
            raise UsageError(f"--bots: a time-track game has 2 seats, got {len(bots)} bot(s) ('{text}')")
        automas = [b for b in bots if b.kind == AUTOMA]
        if len(automas) == 2:
            raise UsageError("--bots: automa plays against one player bot, not against itself")
        if not automas:
            return Seating(tuple(bots), 2,
                           "each deal is played twice with seats swapped: bot 0 in seat 0, then bot 1 in seat 0")
        automa = automas[0]
        if edition.timetrack_rules.automa is None:
            raise UsageError(f"--bots: edition '{edition.name}' has no Automa deck, so 'automa' cannot play it")
        decks = [name for name, _ in edition.timetrack_rules.automa.decks]
        if automa.automa_deck not in decks:
            raise UsageError(f"--automa-deck '{automa.automa_deck}' is not a deck of '{edition.name}' "
                             f"(decks: {', '.join(decks)})")
        levels = [lv.level for lv in edition.timetrack_rules.automa.levels]
        if automa.automa_level not in levels:
            raise UsageError(f"--automa-level {automa.automa_level} is not a level of '{edition.name}' "
                             f"(levels: {', '.join(map(str, levels))})")
        player = bots[0] if bots[1].kind == AUTOMA else bots[1]
        return Seating((player, automa), 1,
                       "Automa: the player bot sits in seat 0 and always moves first (Automa rules); no swap")

    def warm_ups(self) -> list:
        return [WarmUp("time-track simulator: random, greedy, mcts and Automa in the turn loop",
                       "toolkit.warmup:timetrack_simulator"),
                WarmUp("time-track rules and the bots at the prompt", "toolkit.warmup:timetrack_prompt")]

    def check_tables(self, edition: Edition) -> None:
        from toolkit.games.timetrack.tables import tables_for

        tables_for(edition)

    def play(self, edition, bots, game_rngs, bot_rngs, swap) -> dict[str, np.ndarray]:
        from toolkit.bots.registry import AUTOMA
        from toolkit.families.timetrack.loop import play_time_track
        from toolkit.games.timetrack.tables import tables_for

        tables = tables_for(edition)
        deck = 0
        for bot in bots:
            if bot.kind == AUTOMA:
                deck = tables.deck_names.index(bot.automa_deck)
        return play_time_track(tables.arrays, bots, game_rngs, bot_rngs, swap, deck)

    def tally(self, edition, out, swap):
        return _results().tally_time_track(out, swap)

    def outcomes(self, out, per_deal):
        return _results().time_track_outcomes(out, per_deal)

    def metrics(self, editions, bots, per_deal):
        return _results().time_track_metrics(per_deal)

    def figures(self, tally, edition, seating):
        return _results().time_track_figures(tally, edition, seating.bots, seating.swaps)

    def summary_rows(self, figures):
        return _results().summary_rows(figures)

    def report_sections(self, figures):
        return _results().report_sections(figures)

    def headline(self, figures, patches):
        return _results().headline(figures, patches)

    def comparison_chart(self, base, variant):
        return _results().comparison_chart(base, variant)


FAMILY = register_family(TimeTrackFamily())
