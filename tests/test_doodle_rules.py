"""Every Doodle rule and ruling (RULINGS 14-24) and the rulebook's worked examples, through the
validated Game layer (toolkit.games.doodle.game) over the compiled kernel."""
from __future__ import annotations

import dataclasses

import pytest

from toolkit.bots import make_bot
from toolkit.errors import IllegalAction, UsageError
from toolkit.families import engine_for
from toolkit.games.doodle import DoodleAction, DoodleGame
from toolkit.games.doodle import kernel as K
from toolkit.geometry.board import Board, rectangle_score
from toolkit.games.rng import seed_state
from toolkit.geometry.shape import Shape
from toolkit.specs import load_edition

from positions import arrange, describe, doodle, set_cells

EDITION = load_edition("doodle")
BOARD = Board(EDITION.board_width, EDITION.board_height)


def rect_cells(row, col, width, height):
    return [(r, c) for r in range(row, row + height) for c in range(col, col + width)]


def first(game, predicate):
    for action in game.legal_actions():
        if predicate(action):
            return action
    raise AssertionError("no such legal action")


def finish_start(game: DoodleGame) -> None:
    while game.phase == "start":
        game.apply(first(game, lambda a: a.kind == "start"))


def advance(game: DoodleGame, phase: str) -> None:
    """Everyone passes (and scores the best rectangle) until `phase` begins."""
    finish_start(game)
    while game.phase != phase:
        if game.phase == "scoring":
            game.apply(game.best_rectangle(game.current_player))
        else:
            game.apply("pass")


def test_engine_registered_for_the_doodle_family():
    game = engine_for(EDITION).new_game(EDITION, seed=3, players=2)
    assert isinstance(game, DoodleGame) and game.players == 2 and game.current_player == 0


# ----- setup (RULINGS 14, 16, 17, 21, 24) ----------------------------------------------------------


def test_setup_deck_circle_token_and_pile():
    game = DoodleGame(EDITION, seed=11, players=1)
    deal = game.deal()
    deck = sorted(p.id for p in EDITION.patches for _ in range(p.copies))
    assert len(deck) == 30
    assert sorted(deal["circle"] + deal["pile"]) == deck
    assert len(deal["circle"]) == EDITION.rules.circle_size == 8
    assert deal["token"]["between"] == [deal["circle"][deal["token"]["next"] - 1], deal["circle"][deal["token"]["next"]]]
    tokens = {DoodleGame(EDITION, seed=s).deal()["token"]["next"] for s in range(60)}
    assert tokens == set(range(8)), "the token starts between two random adjacent cards"


def test_same_seed_same_deal_and_different_seeds_differ():
    assert DoodleGame(EDITION, 5, 3).deal() == DoodleGame(EDITION, 5, 3).deal()
    assert DoodleGame(EDITION, 5, 3).deal() != DoodleGame(EDITION, 6, 3).deal()


def test_start_cards_distinct_up_to_ten_players_then_a_fresh_set():
    for seed in range(5):
        cards = DoodleGame(EDITION, seed, players=10).deal()["start_cards"]
        assert sorted(cards) == sorted(s.id for s in EDITION.rules.start_cards)
    cards = DoodleGame(EDITION, 1, players=23).deal()["start_cards"]
    assert len(set(cards[:10])) == 10 and len(set(cards[10:20])) == 10 and len(cards) == 23


def test_no_player_cap_and_at_least_one_player():
    game = DoodleGame(EDITION, 2, players=14)
    finish_start(game)
    assert game.phase == "turn"
    with pytest.raises(UsageError):
        DoodleGame(EDITION, 2, players=0)


def test_each_player_first_draws_the_start_card_anywhere():
    game = DoodleGame(EDITION, 4, players=2)
    assert game.phase == "start"
    starts = [a for a in game.legal_actions() if a.kind == "start"]
    shape = EDITION.rules.start_cards[[s.id for s in EDITION.rules.start_cards].index(game.sheet(0).start_card)].shape
    assert shape.size == 7
    assert len(starts) == sum(
        (9 - o.height + 1) * (9 - o.width + 1) for o in shape.orientations(True)
    )
    with pytest.raises(IllegalAction, match="must be drawn"):
        game.apply("pass")
    game.apply(starts[-1])
    assert len(game.sheet(0).shaded) == 7 and game.current_player == 1
    with pytest.raises(IllegalAction, match="start card"):
        game.apply("draw o0 r0 c0")


# ----- turns (RULINGS 14, 15, 16) -------------------------------------------------------------------


def test_roll_moves_the_token_clockwise_and_only_the_token_card_is_discarded():
    faces = set()
    for seed in range(8):
        game = DoodleGame(EDITION, seed, players=1)
        finish_start(game)
        for _ in range(6):
            circle = game.circle()
            nxt = game.next_card
            roll = game.roll
            faces.add(roll)
            assert game.token_card == (nxt + roll - 1) % len(circle)
            tok = game.token_card
            game.apply("pass")
            after = circle[:tok] + circle[tok + 1:]
            if game.phase == "turn":
                assert game.circle() == after
                assert game.next_card == tok % len(after), "the token stays in its place"
    assert faces == set(EDITION.rules.die)


@pytest.mark.slow
def test_all_players_draw_the_same_current_patch():
    game = DoodleGame(EDITION, 9, players=3)
    finish_start(game)
    card = game.circle()[game.token_card]
    shape = EDITION.patch(card).shape
    sizes = []
    for _ in range(3):
        draw = first(game, lambda a: a.kind == "draw" and a.neighbour is None and a.cut is None)
        before = len(game.sheet(game.current_player).shaded)
        seat = game.current_player
        game.apply(draw)
        sizes.append(len(game.sheet(seat).shaded) - before)
    assert sizes == [shape.size] * 3


def test_draws_must_fit_on_empty_cells_inside_the_board():
    game = DoodleGame(EDITION, 1, players=1)
    game.apply("start o0 r0 c0")
    with pytest.raises(IllegalAction, match="already shaded"):
        game.apply("draw o0 r0 c0")
    with pytest.raises(IllegalAction, match="does not fit inside the 9x9 board"):
        game.apply("draw o0 r8 c8")


def test_must_pass_when_the_patch_cannot_be_drawn():
    game = doodle("""
        at: round 1, turn 1
        sheets:
          #########
          #########
          #########
          #########
          ####.####
          #########
          #########
          #########
          #########
    """)
    kinds = {a.kind for a in game.legal_actions()}
    patch = EDITION.patch(game.circle()[game.token_card])
    if patch.shape.size > 1:
        assert "draw" not in {a.kind for a in game.legal_actions() if a.cut is None and a.neighbour is None}
    assert "pass" in kinds


def test_rounds_turns_refill_and_the_final_free_choice():
    game = DoodleGame(EDITION, 21, players=1)
    finish_start(game)
    deal = game.deal()
    pile = deal["pile"]
    for rnd in range(3):
        rolled = 6 if rnd < 2 else 5
        for turn in range(rolled):
            assert (game.phase, game.round, game.turn) == ("turn", rnd, turn)
            game.apply("pass")
        if rnd == 2:
            assert game.phase == "free-choice" and len(game.circle()) == 3
            game.apply("pass")
        assert game.phase == "scoring" and game.round == rnd
        leftover_in_line = game.circle()[game.next_card:] + game.circle()[: game.next_card]
        game.apply(game.best_rectangle(0))
        if rnd < 2:
            assert len(leftover_in_line) == 2
            assert game.circle() == leftover_in_line + pile[6 * rnd: 6 * rnd + 6]
            assert game.next_card == 0, "the two leftovers are the next two in line"
    assert game.is_over
    assert len(game.pile()) == 10, "8 + 6 + 6 cards are used, 10 stay unused"


@pytest.mark.slow
def test_final_turn_each_player_picks_any_card_left_even_the_same():
    game = DoodleGame(EDITION, 8, players=2)
    advance(game, "free-choice")
    cards = game.circle()
    assert len(cards) == 3
    picks = {a.card for a in game.legal_actions() if a.kind == "draw"}
    assert picks == set(cards)
    with pytest.raises(IllegalAction, match="no token card"):
        game.apply("draw o0 r0 c0")
    with pytest.raises(IllegalAction, match="not in the circle"):
        game.apply("free NOPE draw o0 r0 c0")
    with pytest.raises(IllegalAction, match="NEIGHBOUR needs a token card"):
        game.apply(f"free {cards[0]} neighbour left draw o0 r0 c0")
    chosen = first(game, lambda a: a.kind == "draw" and a.card == cards[1] and a.cut is None)
    game.apply(chosen)
    again = first(game, lambda a: a.kind == "draw" and a.card == cards[1] and a.cut is None)
    game.apply(again)
    assert game.phase == "scoring"
    assert game.sheet(0).drawn == game.sheet(1).drawn == 1


def test_free_pick_only_on_the_final_turn():
    game = DoodleGame(EDITION, 8, players=1)
    finish_start(game)
    card = game.circle()[0]
    with pytest.raises(IllegalAction, match="only on the final"):
        game.apply(f"free {card} draw o0 r0 c0")


# ----- special actions (RULINGS 18) --------------------------------------------------------------------


def test_neighbour_draws_left_or_right_and_only_the_token_card_is_discarded():
    game = DoodleGame(EDITION, 12, players=2)
    finish_start(game)
    circle = game.circle()
    tok = game.token_card
    left, right = circle[tok - 1], circle[(tok + 1) % len(circle)]
    a = first(game, lambda a: a.neighbour == "left" and a.cut is None)
    seat = game.current_player
    before = len(game.sheet(seat).shaded)
    game.apply(a)
    assert len(game.sheet(seat).shaded) - before == EDITION.patch(left).shape.size
    b = first(game, lambda a: a.neighbour == "right" and a.cut is None)
    before = len(game.sheet(1).shaded)
    game.apply(b)
    assert len(game.sheet(1).shaded) - before == EDITION.patch(right).shape.size
    remaining = game.circle()
    assert circle[tok] not in remaining or remaining.count(circle[tok]) < circle.count(circle[tok])
    assert len(remaining) == len(circle) - 1
    assert game.sheet(0).specials_used["neighbour"] == 1


def test_each_special_once_then_again_repeats_exactly_one():
    game = DoodleGame(EDITION, 12, players=1)
    finish_start(game)
    game.apply(first(game, lambda a: a.neighbour == "left" and a.cut is None))
    with pytest.raises(IllegalAction, match="NEIGHBOUR already used; write 'again neighbour"):
        game.apply(first_neighbour_text(game))
    game.apply(first(game, lambda a: a.neighbour == "right" and a.again == "neighbour" and a.cut is None))
    assert game.sheet(0).specials_used == {"neighbour": 2, "single": 0, "cut": 0, "again": 1}
    with pytest.raises(IllegalAction, match="AGAIN already used"):
        game.apply(first_neighbour_text(game, again=True))
    with pytest.raises(IllegalAction, match="NEIGHBOUR already used"):
        game.apply(first_neighbour_text(game))
    game.apply("single r8 c8")
    with pytest.raises(IllegalAction, match="SINGLE already used"):
        game.apply("single r8 c7")
    with pytest.raises(IllegalAction, match="AGAIN already used"):
        game.apply("again single r8 c7")


def first_neighbour_text(game, again=False):
    circle = game.circle()
    card = circle[(game.token_card - 1) % len(circle)]
    from toolkit.geometry.board import placements

    p = placements(EDITION.patch(card).shape, BOARD)[-1]
    return f"{'again ' if again else ''}neighbour left draw o{p.orientation} r{p.row} c{p.col}"


def test_again_only_repeats_an_action_already_used():
    game = DoodleGame(EDITION, 12, players=1)
    finish_start(game)
    with pytest.raises(IllegalAction, match="SINGLE has not been used yet"):
        game.apply("again single r8 c8")


def test_the_start_card_is_drawn_at_setup_before_any_special_action():
    # RULINGS 17-18: the rulebook's setup ends with drawing the start patch; special actions
    # belong to the course of play, so none can come before it.
    game = DoodleGame(EDITION, 3, players=2)
    assert {a.kind for a in game.legal_actions()} == {"start"}
    for text in ("single r8 c8", "again single r8 c8", "score r0 c0 1x1", "draw o0 r0 c0"):
        with pytest.raises(IllegalAction, match="before any turn or special action"):
            game.apply(text)
    game.apply(game.legal_actions()[0])
    assert {a.kind for a in game.legal_actions()} == {"start"}, "every seat draws its start patch first"
    game.apply(game.legal_actions()[0])
    assert game.phase == "turn" and "single" in {a.kind for a in game.legal_actions()}


def test_single_shades_one_empty_cell_at_any_time_even_in_scoring():
    game = DoodleGame(EDITION, 3, players=1)
    finish_start(game)
    assert (8, 8) not in game.sheet(0).shaded
    game.apply("single r8 c8")
    assert (8, 8) in game.sheet(0).shaded and game.phase == "turn", "SINGLE does not end the step"
    with pytest.raises(IllegalAction, match="already shaded"):
        game.apply("again single r8 c8")
    advance(game, "scoring")
    arrange(game, """
        sheets:
          ###......
          ###......
          ###......
          ##.......
          .........
          .........
          .........
          .........
          .........
    """)
    game.apply("again single r3 c2")
    game.apply("score r0 c0 3x4")
    assert game.sheet(0).round_scores[0] == rectangle_score(4, 3) == 10


def test_single_after_passing_in_the_same_turn_is_the_scoring_or_next_step():
    # Seats act in order; a seat that passed may still shade a cell in any later step of its own.
    game = DoodleGame(EDITION, 3, players=2)
    finish_start(game)
    game.apply("pass")
    game.apply("pass")
    game.apply("single r8 c8")
    assert game.current_player == 0


CUT_U = Shape.parse("###/#.#")
CUT_T = Shape.parse("###/.#./.#.")


def test_cut_that_leaves_three_pieces_is_refused():
    # The rulebook's patch 1: a line through the U leaves the bar and two loose cells.
    lines = {(c.axis, c.index) for c in CUT_U.straight_cuts()}
    assert ("h", 1) not in lines
    assert ("v", 1) in lines and ("v", 2) in lines


def test_a_piece_that_needs_two_lines_is_not_a_cut():
    pieces = {p.canonical_key for c in CUT_T.straight_cuts() for p in c.pieces}
    assert Shape.parse("#").canonical_key in pieces  # one line off the bar's end
    assert Shape.parse("##").canonical_key in pieces
    # The bar's middle cell alone, or the stem with one arm, would need two lines.
    assert Shape.parse("##/#.").canonical_key not in pieces


def test_a_cut_is_one_full_straight_line_never_part_way():
    # RULINGS 18: a line that stopped part-way across the 2x3 block would leave an L and a
    # domino-plus-one; one full line leaves two straight pieces only.
    block = Shape.parse("###/###")
    pieces = {(c.axis, c.index): {p.canonical_key for p in c.pieces} for c in block.straight_cuts()}
    assert set(pieces) == {("h", 1), ("v", 1), ("v", 2)}
    assert pieces[("h", 1)] == {Shape.parse("###").canonical_key}
    assert pieces[("v", 1)] == {Shape.parse("#/#").canonical_key, Shape.parse("##/##").canonical_key}
    every = set().union(*pieces.values())
    assert Shape.parse("##/#.").canonical_key not in every
    # The rulebook's patch 8 (a T) cuts only into its bar's end and the rest: each piece is one
    # side of one full line.
    for cut in CUT_T.straight_cuts():
        side = {cell for cell in CUT_T.cells if (cell[0] if cut.axis == "h" else cell[1]) < cut.index}
        assert set(cut.piece_cells[0]) == side and set(cut.piece_cells[1]) == set(CUT_T.cells) - side


def _play_to_card(shape_id: str):
    """A game whose current patch is `shape_id` on some turn (searching seeds)."""
    for seed in range(400):
        game = DoodleGame(EDITION, seed, players=1)
        finish_start(game)
        for _ in range(6):
            if game.circle()[game.token_card] == shape_id:
                return game
            game.apply("pass")
    raise AssertionError(f"no seed shows {shape_id}")


def test_cut_through_the_engine_refuses_three_pieces_and_draws_one_piece():
    patch = next(p for p in EDITION.patches if p.shape == Shape.parse("###/#.#"))
    game = _play_to_card(patch.id)
    cuts = ", ".join(f"{c.axis}{c.index}" for c in patch.shape.straight_cuts())
    with pytest.raises(IllegalAction, match=f"cut h1 is not a cut of {patch.id}: .* exactly two connected pieces"
                                            f" \\(its cuts: {cuts}\\)"):
        game.apply("cut h1 a draw o0 r7 c0")
    with pytest.raises(IllegalAction, match="cut h2 is not a cut of"):
        game.apply("cut h2 a draw o0 r7 c0")
    before = len(game.sheet(0).shaded)
    cut = patch.shape.straight_cuts()[0]
    game.apply(first(game, lambda a: a.cut == f"{cut.axis}{cut.index}" and a.piece == "a"))
    assert len(game.sheet(0).shaded) - before == cut.pieces[0].size
    assert game.sheet(0).specials_used["cut"] == 1
    second_cut = first(game, lambda a: a.cut is not None and a.again == "cut")
    with pytest.raises(IllegalAction, match="CUT already used; write 'again cut"):
        game.apply(dataclasses.replace(second_cut, again=None))
    game.apply(second_cut)
    assert game.sheet(0).specials_used == {"neighbour": 0, "single": 0, "cut": 2, "again": 1}


def test_neighbour_and_cut_combine_on_one_turn():
    game = DoodleGame(EDITION, 30, players=1)
    finish_start(game)
    combo = first(game, lambda a: a.neighbour is not None and a.cut is not None)
    game.apply(combo)
    used = game.sheet(0).specials_used
    assert used["neighbour"] == 1 and used["cut"] == 1 and used["again"] == 0


def test_again_cannot_cover_two_specials_at_once():
    game = DoodleGame(EDITION, 30, players=1)
    finish_start(game)
    game.apply(first(game, lambda a: a.neighbour is not None and a.cut is not None))
    assert not any(a.neighbour is not None and a.cut is not None for a in game.legal_actions())
    combo = next(a for a in game.legal_actions() if a.neighbour is not None and a.again == "neighbour")
    cut_actions = [a for a in game.legal_actions() if a.cut is not None and a.again == "cut" and a.neighbour is None]
    assert cut_actions
    text = str(combo).replace("draw", f"cut {cut_actions[0].cut} a draw")
    with pytest.raises(IllegalAction, match="AGAIN|CUT already used"):
        game.apply(text)


# ----- scoring (RULINGS 19, 20) ------------------------------------------------------------------------


def test_rulebook_rectangles_4x5_is_17_and_3x8_is_14():
    assert K.rectangle_points(4, 5) == 17 == rectangle_score(4, 5)
    assert K.rectangle_points(8, 3) == 14 == rectangle_score(3, 8)
    # The rulebook's sheet: a 3x8 strip and a separate 4x5 block.
    game = doodle("""
        at: round 1, scoring
        sheets:
          ########.
          ########.
          ########.
          .........
          #####....
          #####....
          #####....
          #####....
          .........
    """, seed=5)
    best = game.best_rectangle(0)
    assert (best.width, best.height) == (5, 4)
    legal_scores = [a for a in game.legal_actions() if a.kind == "score"]
    assert DoodleAction("score", row=0, col=0, width=8, height=3) in legal_scores
    trial = game.copy()
    trial.apply("score r0 c0 8x3")
    assert trial.sheet(0).round_scores[0] == 14
    game.apply(best)
    assert game.sheet(0).round_scores[0] == 17


def test_named_rectangle_must_be_fully_shaded_and_on_the_board():
    game = doodle("""
        at: round 1, scoring
        sheets:
          ####.....
          ####.....
          ####.....
          ####.....
          .........
          .........
          .........
          .........
          .........
    """, seed=5)
    with pytest.raises(IllegalAction, match=r"has an empty cell at \(row 0, col 4\)"):
        game.apply("score r0 c0 5x4")
    with pytest.raises(IllegalAction, match="does not lie on the 9x9 board"):
        game.apply("score r7 c7 4x4")
    with pytest.raises(IllegalAction, match="name a rectangle to score"):
        game.apply("score none")
    with pytest.raises(IllegalAction, match="intermediate scoring"):
        game.apply("pass")


def test_empty_sheet_scores_zero():
    game = DoodleGame(EDITION, 5, players=1)
    advance(game, "scoring")
    set_cells(game, 0, [])
    assert [str(a) for a in game.legal_actions() if a.kind == "score"] == ["score none"]
    game.apply("score none")
    assert game.sheet(0).round_scores[0] == 0


def test_the_rulebook_sheet_25_36_50_minus_6_is_105_and_cells_score_again():
    game = DoodleGame(EDITION, 17, players=1)
    advance(game, "scoring")
    set_cells(game, 0, rect_cells(0, 0, 5, 5))
    game.apply("score r0 c0 5x5")
    advance(game, "scoring")
    set_cells(game, 0, rect_cells(0, 0, 6, 6))
    game.apply("score r0 c0 6x6")  # the 5x5 cells score again inside the 6x6
    advance(game, "scoring")
    arrange(game, """
        sheets:
          #########
          #########
          #########
          #########
          #########
          #########
          #########
          #########
          #......##
    """)  # 7x8 scores 49 + 1 = 50
    assert game.sheet(0).empty == 6
    game.apply("score r0 c0 7x8")
    assert game.is_over
    assert game.sheet(0).round_scores == (25, 36, 50)
    assert game.scores() == [105]


def test_ties_are_shared():
    game = DoodleGame(EDITION, 2, players=3)
    finish_start(game)
    for seat in range(3):
        set_cells(game, seat, rect_cells(2, 2, 3, 4))
    while not game.is_over:
        if game.phase == "scoring":
            game.apply(game.best_rectangle(game.current_player))
        else:
            game.apply("pass")
    scores = game.scores()
    assert scores[0] == scores[1] == scores[2]
    assert game.winners() == [0, 1, 2]


def test_illegal_after_the_end():
    game = DoodleGame(EDITION, 2, players=1)
    advance(game, "scoring")
    while not game.is_over:
        if game.phase == "scoring":
            game.apply(game.best_rectangle(0))
        else:
            game.apply("pass")
    assert game.legal_actions() == [] and game.current_player is None
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply("pass")


def test_render_text_shows_board_scores_and_crossed_specials():
    game = DoodleGame(EDITION, 4, players=2)
    finish_start(game)
    game.apply(first(game, lambda a: a.kind == "single"))
    text = game.render_text()
    assert "player 1" in text and "player 2" in text
    assert "SINGLE [x]" in text and "NEIGHBOUR [ ]" in text
    assert "  1: -" in text and "-: 73" in text


def test_last_event_tells_the_roll_and_the_score():
    game = DoodleGame(EDITION, 4, players=1)
    game.apply(first(game, lambda a: a.kind == "start"))
    assert game.last_event == f"roll {game.roll}: the current patch is {game.circle()[game.token_card]}"
    game.apply("single r8 c8")
    assert game.last_event == ""


@pytest.mark.slow
def test_chance_log_has_each_turns_roll_token_card_and_the_cards_drawn():
    game = DoodleGame(EDITION, 11, players=2)
    finish_start(game)
    rolls = []
    while not game.is_over:
        if game.phase == "turn" and (not rolls or rolls[-1][:2] != (game.round, game.turn)):
            rolls.append((game.round, game.turn, game.roll, game.circle()[game.token_card]))
        if game.phase == "scoring":
            game.apply(game.best_rectangle(game.current_player))
        else:
            draws = [a for a in game.legal_actions() if a.kind == "draw" and a.neighbour is None and a.cut is None]
            game.apply(draws[0] if draws and game.current_player == 0 else "pass")
    log = game.chance_log()
    assert [(e["round"] - 1, e["turn"] - 1, e["roll"], e["card"]) for e in log if e["turn"] != "final"] == rolls
    assert len(log) == 3 * 6 and log[-1]["turn"] == "final" and log[-1]["roll"] is None
    assert all(e["roll"] in EDITION.rules.die for e in log[:-1])
    first_turn = log[0]
    assert first_turn["drawn"][1] is None
    assert first_turn["drawn"][0] in (None, first_turn["card"])
    assert any(e["drawn"][0] == e["card"] for e in log[:-1])
    assert log[-1]["drawn"][0] is None or log[-1]["drawn"][0] in EDITION_PATCH_IDS


EDITION_PATCH_IDS = {p.id for p in EDITION.patches}


def test_every_seat_that_scores_is_told_its_score():
    game = DoodleGame(EDITION, 4, players=2)
    finish_start(game)
    advance(game, "scoring")
    for seat in range(2):
        best = game.best_rectangle(seat)
        game.apply(best)
        assert game.last_event.startswith(f"player {seat + 1} scores {rectangle_score(best.width, best.height)}")


# ----- the test positions' notation (tests/positions.py) -------------------------------------------


@pytest.mark.slow
def test_a_written_position_arranged_on_another_deal_reads_back_and_plays_the_same():
    game = DoodleGame(EDITION, 7, players=1)
    bot = make_bot("greedy", EDITION)
    rng = seed_state(8)
    while True:
        text = describe(game)
        other = doodle(text, seed=8)
        assert describe(other) == text
        assert other.legal_actions() == game.legal_actions()
        if game.is_over:
            break
        game.apply(bot.choose(game, rng))
