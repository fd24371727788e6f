"""Every rule of the time-track rulebooks and RULINGS 1-12, 23, 24, checked through the Game layer
(which runs the compiled kernel): each test fails if its rule is broken."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from toolkit.bots import make_bot
from toolkit.errors import IllegalAction
from toolkit.games.rng import randbelow, seed_state
from toolkit.games.timetrack import kernel as k
from toolkit.games.timetrack.game import Advance, Buy, PlaceLeather, TimeTrackGame
from toolkit.games.timetrack.tables import P_ACTIONS, P_PLACEMENTS, build_tables
from toolkit.specs import load_edition
from toolkit.specs.loader import edition_from_spec, resolved_spec

from positions import arrange, describe, timetrack


# ----- helpers -----------------------------------------------------------------------------

def new(name: str = "classic", seed: int = 1, **options) -> TimeTrackGame:
    return TimeTrackGame(load_edition(name), seed, **options)


def buys_of(game: TimeTrackGame) -> set[str]:
    return {a.patch for a in game.legal_actions() if isinstance(a, Buy)}


def first_buy(game: TimeTrackGame, patch: str) -> Buy:
    return next(a for a in game.legal_actions() if isinstance(a, Buy) and a.patch == patch)


# ----- setup (RULINGS 9, 10, 24) -------------------------------------------------------------

@pytest.mark.parametrize("seed", range(8))
@pytest.mark.slow
def test_classic_setup_puts_the_1x2_last(seed):
    game = new("classic", seed)
    assert sorted(game.circle) == sorted(p.id for p in game.edition.patches)
    assert game.circle[-1] == "P00"  # the 1x2 is the last reachable patch
    assert game.positions == (0, 0) and game.buttons == (5, 5)
    assert game.current_player == 0


def test_express_setup_has_only_colourful_patches_and_token_after_the_smallest():
    game = new("express", 3)
    assert len(game.circle) == 15
    assert game.circle[-1] == "E01"
    assert not set(game.circle) & {p.id for p in game.edition.rules.late_patches}


def test_same_seed_same_deal_other_seed_other_deal():
    assert new("classic", 11).circle == new("classic", 11).circle
    assert new("classic", 11).circle != new("classic", 12).circle


def test_starting_buttons_come_from_the_spec():
    assert new("six-buttons", 1).buttons == (6, 6)


# ----- turn order (RULINGS 1) ----------------------------------------------------------------

def test_the_token_furthest_behind_moves():
    assert timetrack("track: 10 4").current_player == 1
    assert timetrack("track: 3 4").current_player == 0


def test_on_a_shared_space_the_token_that_arrived_last_moves_first():
    game = timetrack("""
        track: 4 3
        market: P00 P01 P02 P03
    """)
    game.apply(first_buy(game, "P00"))  # seat 1 moves 1 space onto seat 0's space, on top
    assert game.positions == (4, 4)
    assert game.current_player == 1
    game.apply(Advance())  # now seat 1 is ahead; seat 0 moves
    assert game.current_player == 0


# ----- action A (RULINGS 2) ------------------------------------------------------------------

def test_advance_moves_in_front_of_the_opponent_and_pays_a_button_per_space():
    game = timetrack("track: 12 6")
    game.apply("advance")
    assert game.positions == (12, 13)
    assert game.buttons == (5, 5 + 7)


def test_advance_stops_at_the_final_space_and_pays_only_real_spaces():
    game = timetrack("track: 53 50")
    game.apply("advance")
    assert game.positions == (53, 53)
    assert game.buttons == (5, 5 + 3)


def test_buying_moves_the_token_by_the_patch_time_capped_at_the_final_space():
    game = timetrack("""
        track: 51 53
        buttons: 10 5
        market: P04 P01 P02
    """)
    game.apply(first_buy(game, "P04"))  # time 5
    assert game.positions == (53, 53)


# ----- action B (RULINGS 3) ------------------------------------------------------------------

def test_only_the_three_patches_after_the_neutral_token_may_be_bought():
    game = timetrack("""
        buttons: 20 5
        market: P01 P02 P05 P13 P00
    """)
    assert buys_of(game) == {"P01", "P02", "P05"}
    with pytest.raises(IllegalAction, match="only the 3 patches after the neutral token"):
        game.apply("buy P13 o0 r0 c0")


def test_with_fewer_patches_left_the_window_holds_those_left():
    game = timetrack("market: P01 P02")
    assert game.window == ["P01", "P02"]
    assert buys_of(game) == {"P01", "P02"}


def test_the_neutral_token_moves_to_the_bought_patch():
    game = timetrack("market: P01 P02 P05 P13 P00")
    game.apply(first_buy(game, "P05"))
    assert game.circle == ["P13", "P00", "P01", "P02"]
    assert game.window == ["P13", "P00", "P01"]


def test_a_patch_must_be_affordable():
    game = timetrack("""
        buttons: 1 5
        market: P05 P01 P02
    """)
    assert "P05" not in buys_of(game)
    with pytest.raises(IllegalAction, match="P05 costs 2 buttons, you have 1"):
        game.apply("buy P05 o0 r0 c0")


def test_paying_spends_the_cost():
    game = timetrack("market: P05 P01 P02")
    game.apply("buy P05 o0 r0 c0")
    assert game.buttons[0] == 3


def test_a_patch_must_fit_somewhere_on_the_quilt():
    game = timetrack("""
        market: P00 P01 P02
        quilts:
          .######## .........
          ######### .........
          ##.###### .........
          ######### .........
          ####.#### .........
          ######### .........
          ######### .........
          ######### .........
          ######### .........
    """)
    assert game.legal_actions() == [Advance()]
    with pytest.raises(IllegalAction, match=r"cell \(0,1\) is already covered"):
        game.apply("buy P00 o0 r0 c0")


def test_patches_never_overhang():
    game = timetrack("""
        buttons: 10 5
        market: P03 P01 P02
    """)
    with pytest.raises(IllegalAction, match="does not lie inside the 9x9 quilt"):
        game.apply("buy P03 o0 r0 c5")


def test_patches_may_be_rotated_and_flipped_unless_the_spec_forbids_it():
    edition = load_edition("classic")
    flip = build_tables(edition)
    rigid = build_tables(dataclasses.replace(edition, allow_flip=False, content_hash="no-flip"))
    p05 = flip.patch_index["P05"]  # chiral: 8 orientations with flips, 4 without
    assert len({key[1] for key in flip.placement_key if key[0] == p05}) == 8
    assert len({key[1] for key in rigid.placement_key if key[0] == p05}) == 4


def test_placed_patches_stay_and_cover_their_cells():
    game = timetrack("""
        buttons: 6 5
        market: P04 P01 P02
    """)
    game.apply("buy P04 o0 r3 c3")
    assert game.quilt_text(0)[3][3:5] == "AA" and game.quilt_text(0)[4][3:5] == "AA"
    assert game.empty_cells[0] == 77


# ----- marks: income and leather (RULINGS 4, 5) ------------------------------------------------

def test_income_pays_when_moving_onto_a_mark():
    game = timetrack("""
        track: 4 10
        income: 3 0
        market: P00 P01 P02
    """)
    game.apply(first_buy(game, "P00"))  # 4 -> 5, the first income mark
    assert game.buttons[0] == 5 - 2 + 3


def test_income_does_not_pay_when_starting_on_a_mark():
    game = timetrack("""
        track: 5 10
        income: 3 0
        market: P00 P01 P02
    """)
    game.apply(first_buy(game, "P00"))  # 5 -> 6
    assert game.buttons[0] == 5 - 2


def test_income_counts_the_patch_just_placed():
    game = timetrack("""
        track: 4 10
        market: P02 P01 P00
    """)
    game.apply(first_buy(game, "P02"))  # income 1, 4 -> 7 passes the mark at 5
    assert game.buttons[0] == 5 - 3 + 1
    assert game.income[0] == 1


def test_every_mark_passed_in_one_move_triggers():
    game = timetrack("""
        track: 4 20
        income: 2 0
    """)
    game.apply("advance")  # 4 -> 21: income at 5, 11, 17 and the leather patch at 20
    assert game.buttons[0] == 5 + 17 + 3 * 2
    assert game.pending_leather == 1


def test_a_leather_patch_must_be_placed_at_once_by_the_player_who_passed_it():
    game = timetrack("track: 19 20")
    game.apply("advance")  # seat 0 to 21: ahead, yet it must place the leather patch first
    assert game.current_player == 0
    actions = game.legal_actions()
    assert len(actions) == 81 and all(isinstance(a, PlaceLeather) for a in actions)
    with pytest.raises(IllegalAction, match="leather patch must be placed first"):
        game.apply("advance")
    game.apply("leather r4 c4")
    assert game.quilt_text(0)[4][4] == "L"
    assert game.current_player == 1
    assert 20 not in game.leather_left
    game.apply("advance")  # seat 1 passes 20 too: the patch is gone
    assert game.pending_leather == 0


def test_a_leather_patch_cannot_go_on_a_covered_cell():
    game = timetrack("""
        track: 19 20
        quilts:
          #........ .........
          ......... .........
          ......... .........
          ......... .........
          ......... .........
          ......... .........
          ......... .........
          ......... .........
          ......... .........
    """)
    game.apply("advance")
    with pytest.raises(IllegalAction, match=r"cell \(0,0\) is already covered"):
        game.apply("leather r0 c0")


def test_several_leather_patches_in_one_move_are_all_collected():
    game = timetrack("track: 19 40")
    game.apply("advance")  # passes 20, 26, 32
    assert game.pending_leather == 3
    for col in range(3):
        game.apply(f"leather r0 c{col}")
    assert game.pending_leather == 0 and game.current_player == 1  # back to turn order
    assert game.empty_cells[0] == 78


def test_a_leather_patch_leaves_play_when_the_quilt_is_full():
    game = timetrack("""
        track: 19 22
        empty: 0 81
    """)
    game.apply("advance")
    assert game.pending_leather == 0
    assert 20 not in game.leather_left


def test_only_the_last_empty_cell_takes_a_leather_patch():
    game = timetrack("""
        track: 19 30
        quilts:
          ######### .........
          ######### .........
          ######### .........
          ######### .........
          ######### .........
          ######### .........
          ######### .........
          ######### .........
          ########. .........
    """)
    game.apply("advance")  # passes 20 and 26; one empty cell
    assert game.pending_leather == 1
    game.apply("leather r8 c8")
    assert game.empty_cells[0] == 0
    assert game.leather_left == [32, 44, 50]


def test_time_boards_come_in_both_leather_layouts():
    assert new("classic").leather_left == [20, 26, 32, 44, 50]
    assert new("classic-revised").leather_left == [26, 32, 38, 44, 50]


# ----- the bonus tile (RULINGS 6, 10) --------------------------------------------------------

def test_the_first_to_fill_a_7x7_square_takes_the_bonus_tile():
    game = timetrack("""
        track: 19 30
        quilts:
          #######.. .........
          #######.. .........
          #######.. ..#######
          ###.###.. ..#######
          #######.. ..#######
          #######.. ..###.###
          #######.. ..#######
          ......... ..#######
          ......... ..#######
    """)
    game.apply("advance")  # passes the leather patches at 20 and 26
    game.apply("leather r3 c3")
    assert game.bonus_owner == 0
    game.apply("leather r8 c8")
    arrange(game, "track: 40 19")
    game.apply("advance")
    game.apply("leather r5 c5")  # seat 1 completes a 7x7 too, later
    assert game.bonus_owner == 0


def test_a_filled_square_anywhere_counts():
    game = timetrack("""
        track: 30 19
        quilts:
          ......... .........
          ......... ..#######
          ......... ..#######
          ......... ..#######
          ......... ..#######
          ......... ..#######
          ......... ..#######
          ......... ..######.
          ......... .........
    """)
    game.apply("advance")
    assert game.bonus_owner is None
    game.apply("leather r7 c8")
    assert game.bonus_owner == 1


def test_express_has_no_bonus_tile():
    game = timetrack("""
        track: 6 10
        quilts:
          ####### .......
          ####### .......
          ####### .......
          ####### .......
          ####### .......
          ####### .......
          ######. .......
    """, edition="express")
    game.apply("advance")  # passes the leather patch at 7
    game.apply("leather r6 c6")
    assert game.empty_cells[0] == 0
    assert game.bonus_owner is None


# ----- game end, scoring, tie-break (RULINGS 7) -----------------------------------------------

def test_the_game_ends_when_both_tokens_are_on_the_final_space():
    game = timetrack("track: 53 52")
    assert not game.is_over
    game.apply("advance")
    assert game.is_over and game.current_player is None
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply("advance")


def test_the_game_is_not_over_while_a_leather_patch_waits():
    game = timetrack("track: 49 53")
    game.apply("advance")  # to 53 passing leather 50
    assert game.positions == (53, 53)
    assert not game.is_over and game.current_player == 0
    game.apply("leather r0 c0")
    assert game.is_over


def test_classic_scoring_example():
    # Doris: 14 buttons + 7 bonus - 5 empty x 2 = 11; Andrea: 18 - 2 x 2 = 14 and wins.
    game = timetrack("""
        track: 53 53
        buttons: 14 18
        empty: 5 2
        first to finish: 0
        bonus: 0
    """)
    assert game.scores() == [11, 14]
    assert game.winners() == [1]


# Eiko and Keno at the end of an Express game (the rulebook's example).
EXPRESS_ENDING = """
    track: 29 29
    buttons: 14 8
    empty: 4 1
    first to finish: {first}
"""


@pytest.mark.parametrize("first", [0, 1])
def test_express_scoring_example_and_the_tie_break(first):
    # Eiko: 14 - 4 x 2 = 6; Keno: 8 - 1 x 2 = 6; the first to reach the last space wins.
    game = timetrack(EXPRESS_ENDING.format(first=first), edition="express")
    assert game.scores() == [6, 6]
    assert game.winners() == [first]


@pytest.mark.parametrize("first", [0, 1])
def test_a_shared_tie_break_leaves_equal_scores_without_a_single_winner(first):
    # The same 6 = 6 ending with `tie_break: shared`: both seats share the victory.
    edition = edition_from_spec({**resolved_spec("express"), "tie_break": "shared"}, "shared-ties")
    game = timetrack(EXPRESS_ENDING.format(first=first), edition=edition)
    assert game.scores() == [6, 6]
    assert game.winners() == [0, 1]
    assert k.winner(game.tables.arrays, game.state) == k.NO_WINNER
    assert "shared victory" in game.render_text()
    arrange(game, "buttons: 15 8")  # unequal scores: tie_break plays no part
    assert game.winners() == [0]


def test_the_first_to_reach_the_final_space_is_remembered():
    game = timetrack("track: 50 52")
    game.apply("advance")  # seat 0 to 53 first
    game.apply("advance")  # seat 1 to 53
    assert game.first_finisher == 0


def test_scores_can_be_negative():
    game = timetrack("""
        track: 53 53
        buttons: 0 0
        empty: 81 81
        first to finish: 1
    """)
    assert game.scores() == [-162, -162]


# ----- Express late patches (RULINGS 11) ------------------------------------------------------

def test_express_blue_patches_join_behind_the_neutral_token_when_five_remain():
    game = timetrack("market: E15 E02 E03 E04 E05 E06", edition="express", seed=5)
    blue = [p.id for p in game.edition.rules.late_patches]
    with pytest.raises(IllegalAction, match="not in the circle yet"):
        game.apply(f"buy {blue[0]} o0 r0 c0")
    game.apply(first_buy(game, "E15"))
    circle = game.circle
    assert circle[:5] == ["E02", "E03", "E04", "E05", "E06"]
    assert sorted(circle[5:]) == sorted(blue)


def test_express_blue_patch_order_is_shuffled_by_the_seed():
    orders = set()
    for seed in range(6):
        game = timetrack("market: E15 E02 E03 E04 E05 E06", edition="express", seed=seed)
        game.apply(first_buy(game, "E15"))
        orders.add(tuple(game.circle[5:]))
    assert len(orders) > 1


# ----- determinism (RULINGS 24) ---------------------------------------------------------------

def play_random(name: str, seed: int, **options) -> TimeTrackGame:
    game = new(name, seed, **options)
    bots = [make_bot("random", game.edition), make_bot("random", game.edition)]
    rng = seed_state(seed, 9)
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game, rng))
    return game


def test_same_seed_and_actions_give_the_same_game_bit_for_bit():
    a, b = play_random("classic", 21), play_random("classic", 21)
    assert [str(x) for x in a.history] == [str(x) for x in b.history]
    assert np.array_equal(a.state, b.state) and np.array_equal(a.quilts, b.quilts)


def test_the_python_random_bot_and_the_compiled_chooser_agree():
    game = new("classic", 4)
    bot = make_bot("random", game.edition)
    r1, r2 = seed_state(77), seed_state(77)
    scratch = np.zeros(game.tables.n_actions, dtype=np.int64)
    for _ in range(25):
        if game.is_over:
            break
        code = k.random_action(game.tables.arrays, game.state, game.quilts, r2, scratch)
        action = bot.choose(game, r1)
        assert game.encode(action) == code
        game.apply(action)


# ----- the test positions' notation (tests/positions.py) --------------------------------------

@pytest.mark.parametrize("name, options", [("classic", {}), ("express", {}),
                                           ("anniversary", {"automa_level": 2, "automa_deck": "tactical"})])
def test_a_written_position_arranged_on_another_deal_reads_back_and_plays_the_same(name, options):
    game = new(name, 7, **options)
    bots = {0: make_bot("random", game.edition), 1: make_bot("automa" if options else "random", game.edition, level=2)}
    rng = seed_state(8)
    while True:
        text = describe(game)
        other = timetrack(text, edition=game.edition, seed=8, **options)
        assert describe(other) == text
        assert other.legal_actions() == game.legal_actions() and other.scores() == game.scores()
        if game.is_over:
            break
        game.apply(bots[game.current_player].choose(game, rng))


# ----- one source of truth: the validator agrees with the legal-action generator ---------------

@pytest.mark.parametrize("name, options", [("classic", {}), ("express", {}), ("anniversary", {"automa_level": 2})])
@pytest.mark.slow
def test_check_action_accepts_exactly_the_legal_actions(name, options):
    game = new(name, 3, **options)
    t = game.tables.arrays
    everything = range(game.tables.n_actions)
    bots = {0: make_bot("random", game.edition), 1: make_bot("automa" if options else "random", game.edition, level=2)}
    rng = seed_state(5)
    positions = 0
    while not game.is_over:
        if len(game.history) % 4 == 0 or game.pending_leather:
            legal = set(game.legal_codes().tolist())
            accepted = {a for a in everything if k.check_action(t, game.state, game.quilts, a) == k.R_OK}
            assert accepted == legal
            positions += 1
        game.apply(bots[game.current_player].choose(game, rng))
    assert positions >= 5


def test_the_final_space_is_an_income_mark():
    game = timetrack("""
        track: 52 53
        income: 4 0
    """)
    game.apply("advance")
    assert game.buttons[0] == 5 + 1 + 4


def test_only_the_moving_player_receives_income():
    game = timetrack("""
        track: 4 8
        income: 2 3
    """)
    game.apply("advance")  # seat 0 passes the mark at 5
    assert game.buttons == (5 + 5 + 2, 5)


def test_express_board_and_time_track():
    game = new("express")
    assert (game.edition.board_width, game.edition.board_height) == (7, 7)
    assert len(game.leather_left) == 6
    assert game.empty_cells == (49, 49)


def test_messages_for_leather_out_of_turn_and_patches_already_bought():
    game = new()
    with pytest.raises(IllegalAction, match="no leather patch to place"):
        game.apply("leather r0 c0")
    with pytest.raises(IllegalAction, match="not on the 9x9 quilt"):
        game.apply("leather r9 c0")
    arrange(game, "market: P01 P02 P05 P13")
    game.apply(first_buy(game, "P01"))
    arrange(game, """
        track: 2 2
        on top: 1
    """)
    with pytest.raises(IllegalAction, match="P01 was already bought by player 1"):
        game.apply("buy P01 o0 r5 c0")


# ----- the fast paths draw and test exactly what the plain rules do ----------------------------

def _wide_edition():
    """Classic on a 12x12 board: 144 cells, three words per quilt (the general legality test)."""
    return edition_from_spec({**resolved_spec("classic"), "board": {"width": 12, "height": 12}}, "wide")


@pytest.mark.parametrize("edition", [load_edition("classic-revised"), load_edition("express"), _wide_edition()],
                         ids=["classic-revised", "express", "12x12"])
def test_random_action_draws_what_the_legal_action_list_would(edition):
    t = build_tables(edition).arrays
    scratch = np.zeros(int(t.params[P_ACTIONS]), dtype=np.int64)
    listed = np.zeros_like(scratch)
    compared = 0
    for seed in range(6):
        rng = seed_state(seed)
        s, q = k.new_state(t, rng)
        while not k.is_over(t, s):
            fast_rng, plain_rng = rng.copy(), rng.copy()
            action = k.random_action(t, s, q, fast_rng, scratch)
            n = k.legal_actions(t, s, q, listed)
            assert action == listed[randbelow(plain_rng, n)]
            assert np.array_equal(fast_rng, plain_rng)
            assert k.check_action(t, s, q, action) == k.R_OK
            k.apply(t, s, q, action, rng)
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("edition", [load_edition("classic"), load_edition("express"), _wide_edition()],
                         ids=["classic", "express", "12x12"])
@pytest.mark.slow
def test_placement_tables_hold_the_same_cells_as_the_masks(edition):
    tables = build_tables(edition)
    t, board = tables.arrays, tables.board
    for g in range(int(t.params[P_PLACEMENTS])):
        mask = sum(int(w) << (64 * i) for i, w in enumerate(t.place_masks[g].tolist()))
        assert int(t.place_lo[g]) == mask & (2**64 - 1)
        assert int(t.place_hi[g]) == (mask >> 64) & (2**64 - 1)
        top, span = int(t.place_top[g]), int(t.place_span[g])
        rebuilt = sum(int(t.place_rows[g, i]) << ((top + i) * board.width) for i in range(span))
        assert rebuilt == mask
        assert t.place_rows[g, 0] != 0 and t.place_rows[g, span - 1] != 0
