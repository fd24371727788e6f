"""The Automa solo opponent (RULINGS 13, reference/patchwork-automa.yaml): setup, the card budget,
pass without buttons, the three filters and FURTHEST, strict overtaking, card income, the 7x7
marker, per-level scoring, the reshuffle, leather patches, and the `automa` bot."""
from __future__ import annotations

import pytest

from toolkit.bots import make_bot
from toolkit.errors import IllegalAction, UsageError
from toolkit.games.timetrack import kernel as k
from toolkit.games.timetrack.game import AutomaTurn, TimeTrackGame
from toolkit.play import new_game, play, seat
from toolkit.specs import load_edition

ANNIVERSARY = load_edition("anniversary")


def new(level: int = 3, deck: str = "normal", seed: int = 1) -> TimeTrackGame:
    return TimeTrackGame(ANNIVERSARY, seed, automa_level=level, automa_deck=deck)


def set_circle(game: TimeTrackGame, ids: list[str]) -> None:
    idx = [game.tables.patch_index[i] for i in ids]
    game.state[k.S_CIRCLE : k.S_CIRCLE + len(idx)] = idx
    game.state[k.S_CIRCLE_LEN] = len(idx)


def automa_to_move(game: TimeTrackGame, automa: int, human: int) -> None:
    game.state[k.S_POS] = human
    game.state[k.S_POS + 1] = automa
    game.state[k.S_TOP] = 1
    assert game.current_player == 1


def card_index(deck: str, virtual_buttons: int, income: int, filters: tuple[str, ...]) -> int:
    cards = ANNIVERSARY.automa.deck(deck)
    for i, card in enumerate(cards):
        if (card.virtual_buttons, card.income, card.filters) == (virtual_buttons, income, filters):
            return i
    raise AssertionError("card not in the deck")


def next_card(game: TimeTrackGame, index: int) -> None:
    """Put card `index` on top of the draw pile."""
    top = k.S_DRAW + int(game.state[k.S_DRAW_LEN]) - 1
    game.state[top] = index


def automa_takes(game: TimeTrackGame, card: int) -> str | None:
    before = set(game.circle)
    next_card(game, card)
    game.apply("automa")
    gone = before - set(game.circle)
    return gone.pop() if gone else None


def test_setup_human_first_automa_has_no_buttons_two_cards_discarded_unseen():
    game = new()
    assert game.current_player == 0
    assert game.buttons == (5, 0)
    assert int(game.state[k.S_DRAW_LEN]) == 10 and int(game.state[k.S_DISCARD_LEN]) == 2
    assert "automa" not in {str(a) for a in game.legal_actions()}


def test_on_automas_turn_only_the_automa_action_is_legal():
    game = new()
    automa_to_move(game, 3, 5)
    assert game.legal_actions() == [AutomaTurn()]
    with pytest.raises(IllegalAction, match="Automa's turn"):
        game.apply("advance")


def test_automa_action_outside_automa_games_is_refused():
    game = TimeTrackGame(load_edition("classic"), 1)
    with pytest.raises(IllegalAction, match="not a game against Automa"):
        game.apply("automa")


def test_no_affordable_patch_means_a_pass_without_buttons_but_with_card_income():
    game = new()
    set_circle(game, ["P03", "P06", "P19", "P00"])
    automa_to_move(game, 4, 10)
    card = card_index("normal", 0, 5, ())
    assert automa_takes(game, card) is None
    assert game.positions == (10, 11)
    assert game.buttons[1] == 2 * 5  # income marks 5 and 11 at the card's income, nothing for spaces


def test_a_single_affordable_patch_is_taken():
    game = new()
    set_circle(game, ["P03", "P10", "P06", "P00"])
    automa_to_move(game, 4, 10)
    card = card_index("normal", 1, 4, ("NO_OVERTAKE", "MOST_BUTTONS", "FURTHEST"))
    assert automa_takes(game, card) == "P10"
    assert game.positions == (10, 6)
    assert game.circle == ["P06", "P00", "P03"]  # the neutral token moved to P10's place
    assert int(game.state[k.S_AUTOMA_WITHOUT_BUTTONS]) == 1
    assert game.buttons[1] == 4  # passed the income mark at 5 with card income 4


def test_largest_filter():
    game = new()
    set_circle(game, ["P00", "P05", "P13", "P01"])
    automa_to_move(game, 4, 10)
    card = card_index("normal", 8, 0, ("LARGEST", "MOST_BUTTONS", "FURTHEST"))
    assert automa_takes(game, card) == "P05"


def test_most_buttons_then_largest_then_furthest_breaks_the_tie():
    game = new()
    set_circle(game, ["P17", "P27", "P01", "P00"])  # P17, P27: 1 button, 4 cells each
    automa_to_move(game, 4, 10)
    card = card_index("normal", 7, 0, ("MOST_BUTTONS", "LARGEST", "FURTHEST"))
    assert automa_takes(game, card) == "P27"
    assert int(game.state[k.S_AUTOMA_WITH_BUTTONS]) == 1
    assert int(game.state[k.S_AUTOMA_BUTTONS_ON_PATCHES]) == 1


def test_no_overtake_drops_patches_that_end_strictly_beyond_the_human():
    game = new()
    # From 10 with the human on 13: P22 (time 4) overtakes; P08 (2) and P31 (1) do not.
    set_circle(game, ["P22", "P08", "P31", "P00"])
    automa_to_move(game, 10, 13)
    card = card_index("normal", 6, 0, ("NO_OVERTAKE", "LARGEST", "FURTHEST"))
    assert automa_takes(game, card) == "P31"  # P08 and P31 both 6 cells: FURTHEST


def test_ending_on_the_humans_space_is_not_overtaking():
    game = new()
    # From 10, human on 13: P24 (time 3) lands on 13, P12 (time 6) passes it.
    set_circle(game, ["P12", "P24", "P00", "P01"])
    automa_to_move(game, 10, 13)
    card = card_index("normal", 3, 3, ("NO_OVERTAKE", "LARGEST", "FURTHEST"))
    assert automa_takes(game, card) == "P24"


def test_a_filter_that_would_leave_no_patch_is_skipped():
    game = new()
    set_circle(game, ["P01", "P13", "P00", "P05"])
    automa_to_move(game, 10, 10)  # every patch overtakes the human
    card = card_index("normal", 6, 0, ("NO_OVERTAKE", "LARGEST", "FURTHEST"))
    assert automa_takes(game, card) == "P13"


def test_the_7x7_tile_goes_to_automa_at_its_difficulty_marker():
    game = new(level=2)  # marker 9 spaces before the final space: 44
    set_circle(game, ["P03", "P06", "P19"])
    automa_to_move(game, 40, 43)
    automa_takes(game, card_index("normal", 0, 5, ()))
    assert game.positions[1] == 44
    assert game.bonus_owner == 1


def test_automa_does_not_take_the_tile_the_human_already_has():
    game = new(level=2)
    game.state[k.S_BONUS_OWNER] = 0
    set_circle(game, ["P03", "P06", "P19"])
    automa_to_move(game, 40, 50)
    automa_takes(game, card_index("normal", 0, 5, ()))
    assert game.bonus_owner == 0


@pytest.mark.parametrize(
    "level, expected",
    [(1, 7), (2, 7 + 10), (3, 7 + 10 + 3), (4, 7 + 10 + 9), (5, 7 + 10 + 3 + 9)],
)
def test_automa_scoring_per_level(level, expected):
    game = new(level=level)
    game.state[k.S_BUTTONS + 1] = 10
    game.state[k.S_AUTOMA_WITH_BUTTONS] = 3
    game.state[k.S_AUTOMA_BUTTONS_ON_PATCHES] = 9
    game.state[k.S_AUTOMA_WITHOUT_BUTTONS] = 4
    game.state[k.S_BONUS_OWNER] = 1
    assert game.scores()[1] == expected
    game.state[k.S_BONUS_OWNER] = -1
    assert game.scores()[1] == expected - 7


def test_the_human_scores_by_the_normal_rules():
    game = new(level=5)
    game.state[k.S_BUTTONS] = 20
    game.state[k.S_FILLED] = 81 - 3
    assert game.scores()[0] == 20 - 6


@pytest.mark.parametrize("deck", ["normal", "tactical"])
def test_the_deck_is_reshuffled_with_the_setup_discards_when_empty(deck):
    game = new(deck=deck)
    t, s = game.tables.arrays, game.state
    seen = []
    for _ in range(10):
        k.apply(t, s, game.quilts, game.tables.action_automa, game.rng)
        seen.append(int(s[k.S_CARD]))
    assert len(set(seen)) == 10
    assert int(s[k.S_DRAW_LEN]) == 0 and int(s[k.S_DISCARD_LEN]) == 12
    k.apply(t, s, game.quilts, game.tables.action_automa, game.rng)
    assert int(s[k.S_DRAW_LEN]) == 11 and int(s[k.S_DISCARD_LEN]) == 1
    cards = set(s[k.S_DRAW : k.S_DRAW + 11].tolist()) | {int(s[k.S_CARD])}
    assert cards == set(range(12))


def test_leather_patches_passed_by_automa_leave_play():
    game = new()
    set_circle(game, ["P03", "P06", "P19"])
    automa_to_move(game, 18, 25)
    automa_takes(game, card_index("normal", 0, 5, ()))
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
    game = new(level=1)
    game.state[k.S_BONUS_OWNER] = 1
    width = game.edition.board_width
    for r in range(7):
        for c in range(7):
            if (r, c) != (0, 0):
                bit = r * width + c
                game.quilts[0, bit >> 6] |= 1 << (bit & 63)
    game.state[k.S_FILLED] = 48
    game.state[k.S_POS] = 25
    game.state[k.S_POS + 1] = 30
    game.apply("advance")  # passes the leather patch at 26
    game.apply("leather r0 c0")
    assert game.bonus_owner == 1


def test_the_card_without_virtual_buttons_never_buys_even_a_free_patch():
    game = new()
    set_circle(game, ["P16", "P03", "P06"])  # P16 costs 0 buttons
    automa_to_move(game, 4, 10)
    assert automa_takes(game, card_index("normal", 0, 5, ())) is None
    assert game.positions[1] == 11


def test_the_tactical_deck_shows_the_next_cards_virtual_buttons():
    game = new(deck="tactical")
    card = card_index("tactical", 1, 5, ("NO_OVERTAKE", "MOST_BUTTONS", "FURTHEST"))
    next_card(game, card)
    assert game.next_card_buttons == 1
    assert "next card (tactical deck, back shown): 1 virtual buttons" in game.render_text()
    assert new(deck="normal").next_card_buttons is None


def test_the_barcode_card_carries_its_printed_number_12():
    edition = load_edition("anniversary")
    barcode = [card for card in edition.automa.deck("normal") if card.virtual_buttons == 0]
    assert [card.number for card in barcode] == [12]
    numbers = sorted(card.number for card in edition.automa.deck("normal"))
    assert numbers == list(range(1, 13))
