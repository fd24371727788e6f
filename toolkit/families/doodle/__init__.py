"""The Doodle rules family as the rest of the toolkit sees it: one registered RulesFamily and its
capability record."""
from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.errors import UsageError
from toolkit.families.base import FamilyInfo, RulesFamily, Seating, WarmUp, register_family, sweep_keys
from toolkit.specs.models import DoodleRules, Edition, Family, Patch, StartCard
from toolkit.games.text import draw_side_by_side

if TYPE_CHECKING:
    import numpy as np


def _results():
    """The result figures (numpy, toolkit.stats) load when a run is summed, not when the family is asked
    about seats or capabilities (the command line refuses options through it)."""
    from toolkit.families.doodle import results

    return results


INFO = FamilyInfo(
    name=Family.DOODLE.value,
    title="Doodle",
    editions="doodle and its variants",
    fixed_seats=None,
    seat_rule="one sheet per player (one bot: the solo game); seat k is bot k in every game",
    prices_patches=False,
    head_to_head=False,
    has_solo_opponent=False,
    has_time_track=False,
    result_fields=("score", "empty", "round1", "round2", "round3"),
    test_figures=("score",),
    # The keys toolkit.games.doodle.kernel reads: every scalar rule (from its field in toolkit.specs.models).
    sweepable=sweep_keys(Edition, DoodleRules),
    components=("sheet", "pad", "cards", "tokens", "rules", "kit", "challenge"),
    kit_editions=("doodle",),
    default_edition="doodle",
    default_bots="random",
    balance_bots="greedy",
    strong_bot="expert",
    hint_bot="expert",
    action_example="draw",
)


class DoodleFamily(RulesFamily):
    family = Family.DOODLE
    info = INFO
    kernel_modules = ("toolkit.games.doodle.kernel",)
    loop_modules = ("toolkit.families.doodle.loop",)

    def engine(self):
        from toolkit.games.doodle import ENGINE

        return ENGINE

    def seats(self, edition: Edition, players: int | None) -> int:
        if players is None:
            return max(edition.players_min, 1)
        high = edition.players_max
        if players < edition.players_min or (high is not None and players > high):
            allowed = f"{edition.players_min} to {high}" if high is not None else f"at least {edition.players_min}"
            raise UsageError(f"{edition.name} is played by {allowed} player(s), got {players}")
        return players

    def shapes_in_play(self, game) -> list[tuple[str, str]]:
        if game.is_over:
            return []
        phase = game.phase
        circle = game.circle()
        if phase == "start":
            return [("start card", game.sheet(game.current_player).start_card)]
        if phase == "free-choice":
            return [("circle", pid) for pid in circle]
        if phase == "turn" and game.token_card is not None:
            tok, n = game.token_card, len(circle)
            shown = [("token card", circle[tok])]
            if n >= 2:
                shown.append(("neighbour left", circle[(tok - 1) % n]))
            if n >= 3:
                shown.append(("neighbour right", circle[(tok + 1) % n]))
            return shown
        return []

    def shapes(self, edition: Edition) -> tuple[tuple[str, object], ...]:
        items: tuple[Patch | StartCard, ...] = (*edition.patches, *edition.doodle_rules.start_cards)
        return tuple((item.id, item.shape) for item in items)

    def quilt_cells(self, game, seat: int) -> dict[tuple[int, int], str]:
        return {cell: "#" for cell in game.sheet(seat).shaded}

    def view(self, game):
        from toolkit.families.doodle.view import view

        return view(game)

    def views(self, game):
        from toolkit.families.doodle.view import views

        return views(game)

    def board_text(self, game) -> str:
        """The sheets, then the cards a player may draw now as printed (orientation o0)."""
        text = game.render_text()
        shown = self.shapes_in_play(game)
        if shown:
            shapes = {item.id: item.shape for item in (*game.edition.patches, *game.edition.rules.start_cards)}
            blocks = [(f"{role} {pid}", shapes[pid].rows()) for role, pid in shown]
            text += "\n" + "\n".join(["cards in play (as printed, o0; 'shapes ID' draws every orientation):",
                                      *draw_side_by_side(blocks)])
        return text

    def default_bots(self, edition: Edition) -> str:
        return ",".join(["random"] * max(edition.players_min, 1))

    def seating(self, bots: tuple, edition: Edition, text: str) -> Seating:
        """One bot per player (one bot: the solo game); seat k is bot k in every game."""
        players_max = edition.players_max
        if len(bots) < edition.players_min or (players_max is not None and len(bots) > players_max):
            upper = "any number" if players_max is None else str(players_max)
            raise UsageError(f"--bots: '{edition.name}' takes {edition.players_min}..{upper} players, got {len(bots)}")
        rule = ("Doodle solo: one seat, no swap" if len(bots) == 1 else
                "Doodle with several players: seat k is played by bot k in every game, nothing rotates")
        return Seating(tuple(bots), 1, rule)

    def warm_ups(self) -> list:
        return [WarmUp("Doodle simulator: random and greedy", "toolkit.warmup:doodle_simulator"),
                WarmUp("Doodle expert, its last-round search and hints", "toolkit.warmup:doodle_expert"),
                WarmUp("Doodle rules at the prompt", "toolkit.warmup:doodle_prompt")]

    def check_tables(self, edition: Edition) -> None:
        from toolkit.games.doodle.kernel import build_tables

        build_tables(edition)

    def check_edited(self, edition: Edition) -> str | None:
        from toolkit.specs.loader import doodle_count_problems

        problems = doodle_count_problems(edition.doodle_rules.circle_size, edition.doodle_rules.rounds, edition.doodle_rules.refill,
                                         edition.doodle_rules.turns_per_round, sum(p.copies for p in edition.patches))
        return problems[0][1] if problems else None

    def play(self, edition, bots, game_rngs, bot_rngs, swap) -> dict[str, np.ndarray]:
        from toolkit.families.doodle.loop import play_doodle

        return play_doodle(edition, bots, game_rngs, bot_rngs)

    def tally(self, edition, out, swap):
        return _results().tally_doodle(out, len(edition.rules.start_cards))

    def outcomes(self, out, per_deal):
        return _results().doodle_outcomes(out)

    def metrics(self, editions, bots, per_deal):
        return _results().doodle_metrics(len(bots), max(e.rules.rounds for e in editions))

    def figures(self, tally, edition, seating):
        return _results().doodle_figures(tally, edition, seating.bots)

    def summary_rows(self, figures):
        return _results().summary_rows(figures)

    def report_sections(self, figures):
        return _results().report_sections(figures)

    def headline(self, figures, patches):
        return _results().headline(figures, patches)

    def comparison_chart(self, base, variant):
        return _results().comparison_chart(base, variant)


FAMILY = register_family(DoodleFamily())
