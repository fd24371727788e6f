"""The Automa solo opponent (RULINGS 13, reference/patchwork-automa.yaml): setup, the card budget,
pass without buttons, the three filters and FURTHEST, strict overtaking, card income, the 7x7
marker, per-level scoring, the reshuffle, leather patches, and the `automa` bot."""
from __future__ import annotations

import pytest

from toolkit.bots import make_bot
from toolkit.errors import IllegalAction, UsageError
from toolkit.games.timetrack.game import AutomaTurn, TimeTrackGame
from toolkit.play import new_game, play, seat
from toolkit.specs import load_edition

from positions import arrange, automa_patches, automa_piles, timetrack

ANNIVERSARY = load_edition("anniversary")


def new(level: int = 3, deck: str = "normal", seed: int = 1) -> TimeTrackGame:
    return TimeTrackGame(ANNIVERSARY, seed, automa_level=level, automa_deck=deck)


def automa_to_move(market: str | None, automa: int, human: int, level: int = 3, more: str = "") -> TimeTrackGame:
    """A game against Automa in which Automa (seat 1), on space `automa`, moves next; `market` is
    the circle from the neutral token (None: the deal's), `more` further lines of the position."""
    return timetrack(f"""
        track: {human} {automa}
        on top: 1
        {"" if market is None else "market: " + market}
        {more}
        to move: 1
    """, edition=ANNIVERSARY, automa_level=level)


def card_number(deck: str, virtual_buttons: int, income: int, filters: tuple[str, ...]) -> int:
    """The printed number of the Automa card with these virtual buttons, income and filters."""
    for each in ANNIVERSARY.rules.automa.deck(deck):
        if (each.virtual_buttons, each.income, each.filters) == (virtual_buttons, income, filters):
            return each.number
    raise AssertionError("card not in the deck")


def automa_takes(game: TimeTrackGame, number: int) -> str | None:
    before = set(game.circle)
    arrange(game, f"next card: {number}")
    game.apply("automa")
    gone = before - set(game.circle)
    return gone.pop() if gone else None


@pytest.mark.slow
def test_setup_human_first_automa_has_no_buttons_two_cards_discarded_unseen():
    game = new()
    assert game.current_player == 0
    assert game.buttons == (5, 0)
    draw, discarded = automa_piles(game)
    assert len(draw) == 10 and len(discarded) == 2
    assert "automa" not in {str(a) for a in game.legal_actions()}


@pytest.mark.slow
def test_on_automas_turn_only_the_automa_action_is_legal():
    game = automa_to_move(None, automa=3, human=5)
    assert game.legal_actions() == [AutomaTurn()]
    with pytest.raises(IllegalAction, match="Automa's turn"):
        game.apply("advance")


@pytest.mark.slow
def test_automa_action_outside_automa_games_is_refused():
    game = TimeTrackGame(load_edition("classic"), 1)
    with pytest.raises(IllegalAction, match="not a game against Automa"):
        game.apply("automa")


def test_no_affordable_patch_means_a_pass_without_buttons_but_with_card_income():
    game = automa_to_move("P03 P06 P19 P00", automa=4, human=10)
    card = card_number("normal", 0, 5, ())
    assert automa_takes(game, card) is None
    assert game.positions == (10, 11)
    assert game.buttons[1] == 2 * 5  # income marks 5 and 11 at the card's income, nothing for spaces


def test_a_single_affordable_patch_is_taken():
    game = automa_to_move("P03 P10 P06 P00", automa=4, human=10)
    card = card_number("normal", 1, 4, ("NO_OVERTAKE", "MOST_BUTTONS", "FURTHEST"))
    assert automa_takes(game, card) == "P10"
    assert game.positions == (10, 6)
    assert game.circle == ["P06", "P00", "P03"]  # the neutral token moved to P10's place
    assert automa_patches(game) == (0, 0, 1)  # with buttons, buttons on them, without
    assert game.buttons[1] == 4  # passed the income mark at 5 with card income 4


def test_largest_filter():
    game = automa_to_move("P00 P05 P13 P01", automa=4, human=10)
    card = card_number("normal", 8, 0, ("LARGEST", "MOST_BUTTONS", "FURTHEST"))
    assert automa_takes(game, card) == "P05"


def test_most_buttons_then_largest_then_furthest_breaks_the_tie():
    game = automa_to_move("P17 P27 P01 P00", automa=4, human=10)  # P17, P27: 1 button, 4 cells each
    card = card_number("normal", 7, 0, ("MOST_BUTTONS", "LARGEST", "FURTHEST"))
    assert automa_takes(game, card) == "P27"
    assert automa_patches(game) == (1, 1, 0)  # with buttons, buttons on them, without


def test_no_overtake_drops_patches_that_end_strictly_beyond_the_human():
    # From 10 with the human on 13: P22 (time 4) overtakes; P08 (2) and P31 (1) do not.
    game = automa_to_move("P22 P08 P31 P00", automa=10, human=13)
    card = card_number("normal", 6, 0, ("NO_OVERTAKE", "LARGEST", "FURTHEST"))
    assert automa_takes(game, card) == "P31"  # P08 and P31 both 6 cells: FURTHEST


def test_ending_on_the_humans_space_is_not_overtaking():
    # From 10, human on 13: P24 (time 3) lands on 13, P12 (time 6) passes it.
    game = automa_to_move("P12 P24 P00 P01", automa=10, human=13)
    card = card_number("normal", 3, 3, ("NO_OVERTAKE", "LARGEST", "FURTHEST"))
    assert automa_takes(game, card) == "P24"


def test_a_filter_that_would_leave_no_patch_is_skipped():
    game = automa_to_move("P01 P13 P00 P05", automa=10, human=10)  # every patch overtakes the human
    card = card_number("normal", 6, 0, ("NO_OVERTAKE", "LARGEST", "FURTHEST"))
    assert automa_takes(game, card) == "P13"


def test_the_7x7_tile_goes_to_automa_at_its_difficulty_marker():
    game = automa_to_move("P03 P06 P19", automa=40, human=43, level=2)  # marker 9 spaces before the final space: 44
    automa_takes(game, card_number("normal", 0, 5, ()))
    assert game.positions[1] == 44
    assert game.bonus_owner == 1


def test_automa_does_not_take_the_tile_the_human_already_has():
    game = automa_to_move("P03 P06 P19", automa=40, human=50, level=2, more="bonus: 0")
    automa_takes(game, card_number("normal", 0, 5, ()))
    assert game.bonus_owner == 0


@pytest.mark.parametrize(
    "level, expected",
    [(1, 7), (2, 7 + 10), (3, 7 + 10 + 3), (4, 7 + 10 + 9), (5, 7 + 10 + 3 + 9)],
)
def test_automa_scoring_per_level(level, expected):
    game = timetrack("""
        buttons: 5 10
        automa patches: 3 with 9 buttons, 4 without
        bonus: 1
    """, edition=ANNIVERSARY, automa_level=level)
    assert game.scores()[1] == expected
    arrange(game, "bonus: -")
    assert game.scores()[1] == expected - 7


def test_the_human_scores_by_the_normal_rules():
    game = timetrack("""
        buttons: 20 0
        empty: 3 81
    """, edition=ANNIVERSARY, automa_level=5)
    assert game.scores()[0] == 20 - 6


@pytest.mark.parametrize("deck", ["normal", "tactical"])
def test_the_deck_is_reshuffled_with_the_setup_discards_when_empty(deck):
    game = new(deck=deck)

    def automa_turn() -> int:
        """Automa, far behind the human, draws a card; the printed number of the card drawn."""
        arrange(game, "track: 40 0")
        game.apply("automa")
        return game.chance_log()[-1]["card"]

    seen = [automa_turn() for _ in range(10)]
    assert len(set(seen)) == 10
    draw, discarded = automa_piles(game)
    assert len(draw) == 0 and len(discarded) == 12
    last = automa_turn()
    draw, discarded = automa_piles(game)
    assert len(draw) == 11 and discarded == [last]
    assert set(draw) | {last} == {each.number for each in ANNIVERSARY.rules.automa.deck(deck)}


def test_leather_patches_passed_by_automa_leave_play():
    game = automa_to_move("P03 P06 P19", automa=18, human=25)
    automa_takes(game, card_number("normal", 0, 5, ()))
    assert game.positions[1] == 26
    assert game.pending_leather == 0
    assert 26 not in game.leather_left and 32 in game.leather_left
    assert game.empty_cells[1] == 81  # Automa places nothing


def test_the_automa_bot_carries_its_game_options_and_seat():
    bot = make_bot("automa", ANNIVERSARY, level=4, deck="tactical")
    assert bot.game_options == {"automa_level": 4, "automa_deck": "tactical"}
    assert bot.seat == 1
    assert make_bot("automa:2", ANNIVERSARY).game_options["automa_level"] == 2
    assert make_bot("automa:2:tactical", ANNIVERSARY).game_options == {"automa_level": 2, "automa_deck": "tactical"}
    assert make_bot("automa", ANNIVERSARY).game_options["automa_level"] == 3  # the prompt's default
    with pytest.raises(UsageError, match="classic has no Automa deck: the automa bot needs an edition with one"):
        make_bot("automa", load_edition("classic"))
    with pytest.raises(UsageError, match=r"bot 'automa:9': the Automa level must be 1\.\.5, got 9"):
        make_bot("automa:9", ANNIVERSARY)
    with pytest.raises(UsageError, match="the Automa level must be a whole number"):
        make_bot("automa:hard", ANNIVERSARY)
    with pytest.raises(UsageError, match="the Automa deck is missing"):
        make_bot("automa:3:", ANNIVERSARY)
    with pytest.raises(UsageError, match="unknown Automa deck 'cheating' for 'anniversary'"):
        make_bot("automa", ANNIVERSARY, deck="cheating")


@pytest.mark.parametrize("level", [1, 3, 5])
def test_random_human_against_automa_plays_to_the_end(level):
    seats = seat(ANNIVERSARY, "random", automa_level=level, automa_deck="tactical")  # the options seat Automa
    assert [bot.name for bot in seats.bots] == ["random", f"automa:{level}"]
    assert seats.options == {"automa_level": level, "automa_deck": "tactical"}
    game = play(new_game(ANNIVERSARY, level, seats=seats), seats, level)
    assert game.is_over and game.empty_cells[1] == 81
    assert len(game.winners()) == 1


def test_once_automa_holds_the_tile_the_human_cannot_take_it():
    game = timetrack("""
        track: 25 30
        bonus: 1
        quilts:
          .######.. .........
          #######.. .........
          #######.. .........
          #######.. .........
          #######.. .........
          #######.. .........
          #######.. .........
          ......... .........
          ......... .........
    """, edition=ANNIVERSARY, automa_level=1)
    game.apply("advance")  # passes the leather patch at 26
    game.apply("leather r0 c0")
    assert game.bonus_owner == 1


def test_the_card_without_virtual_buttons_never_buys_even_a_free_patch():
    game = automa_to_move("P16 P03 P06", automa=4, human=10)  # P16 costs 0 buttons
    assert automa_takes(game, card_number("normal", 0, 5, ())) is None
    assert game.positions[1] == 11


def test_the_tactical_deck_shows_the_next_cards_virtual_buttons():
    game = new(deck="tactical")
    arrange(game, f"next card: {card_number('tactical', 1, 5, ('NO_OVERTAKE', 'MOST_BUTTONS', 'FURTHEST'))}")
    assert game.next_card_buttons == 1
    assert "next card (tactical deck, back shown): 1 virtual buttons" in game.render_text()
    assert new(deck="normal").next_card_buttons is None


def test_the_barcode_card_carries_its_printed_number_12():
    edition = load_edition("anniversary")
    barcode = [card for card in edition.rules.automa.deck("normal") if card.virtual_buttons == 0]
    assert [card.number for card in barcode] == [12]
    numbers = sorted(card.number for card in edition.rules.automa.deck("normal"))
    assert numbers == list(range(1, 13))
