"""The Doodle rules are asked, not copied: the bots' move walk and chance model against the kernel.

Over several hundred seeded positions of the bundled Doodle editions and variants (and a few
edited ones: fewer special actions, a small sheet), the drawings the bots walk (the kernel's
drawing sources, walk_sources, each with the placements of its shape that the greedy's own
scanner finds) are exactly the kernel's legal drawing actions, in its canonical order and
without duplicates; the greedy's shortlist and the last-round search's cards come from the same
walk. The chance model: die_faces against the die table, and the token's walk (token_card,
discard_card, token_next) against what apply_action does for every face of the die, at a turn,
after the start and at a new round; the last-round search's die sequences against the kernel
playing those very rolls.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from toolkit.bots.doodle import endgame as E
from toolkit.bots.doodle import features as F
from toolkit.bots.doodle import shortlist as SL
from toolkit.bots.doodle.weights import GREEDY_WEIGHTS
from toolkit.games.doodle import kernel as K
from toolkit.specs import load_edition

from tests.doodle_positions import seeded_positions

BASE = load_edition("doodle")

# (edition, players, seed, share of steps that avoid special actions, in tenths): uniform
# random play spends the special actions in the first turns; play that mostly avoids them keeps
# them (and AGAIN) open into the last round and the free choice.
EDITIONS = {
    "doodle": BASE,
    "doodle-8x8": load_edition("doodle-8x8"),
    "doodle-4-rounds": load_edition("doodle-4-rounds"),
    "no-again": BASE.changed(name="doodle-test-no-again", special_actions=("neighbour", "cut")),
    "again-no-single": BASE.changed(name="doodle-test-again", special_actions=("neighbour", "cut", "again")),
    "small": BASE.changed(name="doodle-test-small", board_width=5, board_height=4),
}
GAMES = [
    ("doodle", 1, 1, 0), ("doodle", 1, 2, 8), ("doodle", 1, 3, 10), ("doodle", 1, 4, 9), ("doodle", 1, 5, 6),
    ("doodle", 2, 6, 8), ("doodle", 2, 7, 3), ("doodle", 3, 8, 9),
    ("doodle-8x8", 1, 9, 8), ("doodle-8x8", 2, 10, 5),
    ("doodle-4-rounds", 1, 11, 9), ("doodle-4-rounds", 2, 12, 7),
    ("no-again", 1, 13, 7), ("again-no-single", 2, 14, 8),
    ("small", 3, 15, 5), ("small", 2, 16, 0), ("doodle", 2, 17, 10),
]
DRAW_PHASES = (K.PH_START, K.PH_TURN, K.PH_FREE)


@pytest.fixture(scope="module")
def positions():
    """(name, tables, st, occ) of every position of the seeded games."""
    return seeded_positions(GAMES, EDITIONS)


def _sources(tables, st):
    src = np.full((K.max_sources(tables, st), K.NSRC), -99, dtype=np.int64)
    n = K.walk_sources(tables, st, src)
    assert (src[n:] == -99).all(), "walk_sources writes only the rows it counts"
    return src[:n]


def _bot_walk(tables, st, occ, src):
    """The drawings the bots walk, as action rows in walk order: each drawing source of the
    kernel's walk_sources with every placement of its shape that the greedy's scanner
    (scan_shape, with a shortlist too long to drop any) finds fitting the sheet."""
    params = tables.params
    width, height, words = int(params[K.P_WIDTH]), int(params[K.P_HEIGHT]), int(params[K.P_WORDS])
    aux = F.greedy_tables(tables)
    k = st[K.S_SEAT]
    rows = np.empty(height, dtype=np.int64)
    F.sheet_rows(occ[k], width, height, rows)
    planes = np.empty((3, words), dtype=np.int64)
    F.contact_planes(rows, width, height, planes)
    target = np.zeros(words, dtype=np.int64)
    fitting = {}
    blocks = []
    for row in src:
        if row[K.SRC_KIND] == K.K_SINGLE:
            continue
        shape = int(row[K.SRC_SHAPE])
        if shape not in fitting:
            size = int(tables.shape_count[shape]) + 1
            keys = np.full(size, -1e18)
            items = np.full(size, -1, dtype=np.int64)
            SL.scan_shape(tables, aux, shape, rows, planes, target, GREEDY_WEIGHTS, 0.0, 0.0, 0, keys, items)
            fitting[shape] = np.sort(items[items >= 0])
        places = fitting[shape]
        block = np.zeros((places.shape[0], K.NA), dtype=np.int64)
        block[:, K.A_KIND] = row[K.SRC_KIND]
        block[:, K.A_CARD] = row[K.SRC_CARD]
        block[:, K.A_NB] = row[K.SRC_NB]
        block[:, K.A_CUT] = row[K.SRC_CUT]
        block[:, K.A_PIECE] = row[K.SRC_PIECE]
        block[:, K.A_AGAIN] = row[K.SRC_AGAIN]
        block[:, K.A_PLACE] = places
        blocks.append(block)
    return np.concatenate(blocks) if blocks else np.zeros((0, K.NA), dtype=np.int64)


def _distinct(rows):
    return np.unique(rows, axis=0).shape[0] == rows.shape[0]


@pytest.mark.slow
def test_the_bots_walk_lists_exactly_the_kernels_legal_drawings(positions):
    seen = {"positions": 0, "players": set(), "phases": set(), "neighbour again": 0, "cut again": 0,
            "cut at the free choice": 0, "neighbour and cut": 0, "single": 0, "nothing fits": 0}
    for name, tables, st, occ in positions:
        if st[K.S_PHASE] not in DRAW_PHASES:
            continue
        acts = K.list_actions(tables, st, occ)
        drawings = acts[(acts[:, K.A_KIND] == K.K_DRAW) | (acts[:, K.A_KIND] == K.K_START)]
        src = _sources(tables, st)
        walked = _bot_walk(tables, st, occ, src)
        where = f"{name}, round {st[K.S_ROUND]}, turn {st[K.S_TURN]}, seat {st[K.S_SEAT]}"
        assert _distinct(drawings), where
        assert _distinct(walked), where
        # The same drawings, and in the kernel's canonical order (the bots' tie-break).
        assert walked.shape == drawings.shape and (walked == drawings).all(), where
        # Every drawing is one the kernel's validator accepts (a sample, to stay fast).
        for i in range(0, walked.shape[0], max(1, walked.shape[0] // 5)):
            assert K.check_action(tables, st, occ, walked[i]) == K.R_OK, where
        # SINGLE is the last source when it is open, and never at setup.
        single = src[:, K.SRC_KIND] == K.K_SINGLE
        assert single.sum() == (1 if (acts[:, K.A_KIND] == K.K_SINGLE).any() else 0), where
        assert not single[:-1].any() and not (single.any() and st[K.S_PHASE] == K.PH_START), where
        seen["positions"] += 1
        seen["players"].add(int(st[K.S_PLAYERS]))
        seen["phases"].add(int(st[K.S_PHASE]))
        seen["neighbour again"] += bool((drawings[:, K.A_AGAIN] == K.SP_NEIGHBOUR + 1).any())
        seen["cut again"] += bool((drawings[:, K.A_AGAIN] == K.SP_CUT + 1).any())
        seen["neighbour and cut"] += bool(((drawings[:, K.A_NB] != 0) & (drawings[:, K.A_CUT] >= 0)).any())
        seen["cut at the free choice"] += bool(st[K.S_PHASE] == K.PH_FREE and (drawings[:, K.A_CUT] >= 0).any())
        seen["single"] += bool(single.any())
        seen["nothing fits"] += drawings.shape[0] == 0
    # The positions reach what the walk has to get right.
    assert seen["positions"] >= 500 and seen["players"] == {1, 2, 3}
    assert seen["phases"] == set(DRAW_PHASES)
    for key in ("neighbour again", "cut again", "neighbour and cut", "cut at the free choice", "single",
                "nothing fits"):
        assert seen[key] > 0, key


@pytest.mark.slow
def test_the_greedy_shortlist_writes_legal_drawings_in_canonical_order(positions):
    checked = 0
    for name, tables, st, occ in positions[::4]:
        if st[K.S_PHASE] not in DRAW_PHASES:
            continue
        acts = K.list_actions(tables, st, occ)
        index = {tuple(a): i for i, a in enumerate(acts.tolist())}
        aux = F.greedy_tables(tables)
        src, nsrc, cand, places, values, costs, best_j = SL.shortlist(tables, aux, st, occ, GREEDY_WEIGHTS)
        assert (src[:nsrc, K.SRC_KIND] != K.K_SINGLE).all()
        order = []
        act = np.zeros(K.NA, dtype=np.int64)
        for j in range(cand.shape[0]):
            SL.put_choice(tables, st, src, nsrc, cand, places, j, act)
            assert tuple(act.tolist()) in index, name
            order.append(index[tuple(act.tolist())])
        assert order == sorted(order), name
        checked += 1
    assert checked >= 100


@pytest.mark.slow
def test_the_last_rounds_cards_are_the_kernels(positions):
    """The cover search's turn for this step: the cards the kernel offers (the token card, its
    neighbours while NEIGHBOUR is open, or the free choice's cards), each patch once."""
    for name, tables, st, occ in positions:
        phase = st[K.S_PHASE]
        if phase not in (K.PH_TURN, K.PH_FREE):
            continue
        circle = [int(st[st[K.S_CIRCLE_AT] + i]) for i in range(st[K.S_CIRCLE_LEN])]
        k = st[K.S_SEAT]
        if phase == K.PH_TURN:
            cur, n = int(st[K.S_CUR]), len(circle)
            offered = [(circle[cur], 0)]
            if n >= 2 and K.special_mode(tables.params, st, k, K.SP_NEIGHBOUR) != 0:
                offered += [(circle[(cur - 1) % n], 1), (circle[(cur + 1) % n], 1)]
        else:
            offered = [(p, 0) for p in circle]
        expect = []
        for patch, nb in offered:
            if patch not in [p for p, _ in expect]:
                expect.append((patch, nb))
        patch = np.zeros(E.MAX_OPTIONS, dtype=np.int64)
        nb = np.zeros(E.MAX_OPTIONS, dtype=np.int64)
        count = E.step_options(tables, st, patch, nb)
        assert list(zip(patch[:count].tolist(), nb[:count].tolist())) == expect[:E.MAX_OPTIONS], name
        acts = K.list_actions(tables, st, occ)
        drawn = {circle[c] for c in acts[acts[:, K.A_KIND] == K.K_DRAW, K.A_CARD]}
        assert drawn <= set(patch[:count].tolist()), name


# ----- the chance model ------------------------------------------------------------------------


@pytest.mark.parametrize("die", [(1, 1, 2, 2, 3, 3), (1, 2, 3, 4, 5, 6), (3, 1, 3, 3), (2,), (4, 4, 1, 2, 1)])
def test_die_faces_are_the_die_tables_faces_with_their_share_of_the_sides(die):
    table = np.array(die, dtype=np.int64)
    faces = np.full(len(die), -1, dtype=np.int64)
    chance = np.full(len(die), -1.0)
    m = K.die_faces(table, faces, chance)
    distinct = list(dict.fromkeys(die))
    assert m == len(distinct) and faces[:m].tolist() == distinct
    assert chance[:m].tolist() == [die.count(f) / len(die) for f in distinct]
    assert math.isclose(math.fsum(chance[:m]), 1.0, rel_tol=0, abs_tol=1e-12)


def test_the_bundled_editions_die_is_the_spec_die():
    for edition in EDITIONS.values():
        tables = K.build_tables(edition)
        assert tables.die.tolist() == list(edition.rules.die)
    faces, chance = np.empty(6, dtype=np.int64), np.empty(6)
    assert K.die_faces(K.build_tables(BASE).die, faces, chance) == 3
    assert faces[:3].tolist() == [1, 2, 3] and chance[:3].tolist() == [1 / 3] * 3


def _force(tables, face):
    """The tables with a die of one side, so the next roll is `face`."""
    return tables._replace(die=np.array([face], dtype=np.int64))


def _faces(tables):
    faces, chance = np.empty(tables.die.shape[0], dtype=np.int64), np.empty(tables.die.shape[0])
    m = K.die_faces(tables.die, faces, chance)
    return faces[:m].tolist(), chance[:m].tolist()


PASS = np.array([K.K_PASS, -1, 0, -1, 0, 0, 0, 0, 0, 0], dtype=np.int64)


def _step_end(tables, st, occ):
    """An action of the seat to act that ends its step: passing, at setup the first listed
    action (the start card's patch, or passing), at a scoring the first rectangle."""
    if st[K.S_PHASE] in (K.PH_TURN, K.PH_FREE):
        return PASS
    acts = K.list_actions(tables, st, occ)
    if st[K.S_PHASE] == K.PH_SCORE:
        return acts[acts[:, K.A_KIND] == K.K_SCORE][0]
    return acts[0]


def test_the_token_walks_as_apply_moves_it_for_every_face(positions):
    kinds = {K.PH_START: 0, K.PH_TURN: 0, K.PH_SCORE: 0}
    for name, tables, st, occ in positions:
        phase = st[K.S_PHASE]
        if phase not in kinds or st[K.S_SEAT] != st[K.S_PLAYERS] - 1:
            continue
        circle = [int(st[st[K.S_CIRCLE_AT] + i]) for i in range(st[K.S_CIRCLE_LEN])]
        act = _step_end(tables, st, occ)
        for face in _faces(tables)[0]:
            st2, occ2 = st.copy(), occ.copy()
            K.apply_action(_force(tables, face), st2, occ2, act)
            if st2[K.S_PHASE] != K.PH_TURN:
                continue  # no roll: the round's turns are over
            after = [int(st2[st2[K.S_CIRCLE_AT] + i]) for i in range(st2[K.S_CIRCLE_LEN])]
            n = len(after)
            if phase == K.PH_TURN:
                # Only the token card leaves; the token stays, before the card that followed it.
                cur = int(st[K.S_CUR])
                assert after == circle[:cur] + circle[cur + 1:], name
                nxt = cur % n
                assert K.discard_card(np.array(circle), 0, len(circle), cur) == n
                assert K.token_next(cur, n) == nxt
            elif phase == K.PH_SCORE:
                # A new round: the leftovers from the token on, then the refill; the token before them.
                start = int(st[K.S_NEXT])
                assert after[: len(circle)] == [circle[(start + i) % len(circle)] for i in range(len(circle))], name
                nxt = 0
            else:
                assert after == circle, name
                nxt = int(st[K.S_NEXT])
            # The face-th card clockwise after the token is the token card.
            assert st2[K.S_ROLL] == face
            assert st2[K.S_CUR] == (nxt + face - 1) % n == K.token_card(nxt, face, n), name
            assert st2[K.S_NEXT] == nxt
            kinds[phase] += 1
    assert min(kinds.values()) > 0, kinds


@pytest.mark.slow
def test_the_last_rounds_die_sequences_are_the_kernels_rolls(positions):
    """Every die sequence _sequences enumerates, played by the kernel with those rolls, offers
    the cards the search expects on each turn, and the free choice the cards left; each
    sequence weighs the product of its faces' chances."""
    tested = 0
    for name, tables, st, occ in positions:
        last = st[K.S_ROUND] == tables.params[K.P_ROUNDS] - 1
        if not (last and st[K.S_PHASE] == K.PH_TURN and st[K.S_PLAYERS] == 1 and st[K.S_TURN] in (0, 2)):
            continue
        weight, n_turns, opt_patch, opt_nb, opt_count = E.die_sequences(tables, st)
        faces, chance = _faces(tables)
        rem = K.rolled_turns(tables.params, st[K.S_ROUND]) - st[K.S_TURN] - 1
        assert weight.shape[0] == len(faces) ** rem <= E.MAX_SEQUENCES
        assert math.isclose(math.fsum(weight), 1.0, abs_tol=1e-12)
        for s in range(weight.shape[0]):
            rolls = [faces[(s // len(faces) ** t) % len(faces)] for t in range(rem)]
            assert math.isclose(weight[s], math.prod(chance[faces.index(r)] for r in rolls), rel_tol=1e-12)
            st2, occ2 = st.copy(), occ.copy()
            t = 0
            for roll in rolls + [faces[0]]:
                pass_act = _step_end(tables, st2, occ2)
                K.apply_action(_force(tables, roll), st2, occ2, pass_act)
                circle = [int(st2[st2[K.S_CIRCLE_AT] + i]) for i in range(st2[K.S_CIRCLE_LEN])]
                if st2[K.S_PHASE] == K.PH_TURN:
                    cur, n = int(st2[K.S_CUR]), len(circle)
                    offered = [(circle[cur], 0)]
                    if n >= 2:
                        offered += [(circle[(cur - 1) % n], 1), (circle[(cur + 1) % n], 1)]
                elif st2[K.S_PHASE] == K.PH_FREE:
                    offered = [(p, 0) for p in circle]
                else:
                    break
                expect = []
                for patch, nb in offered:
                    if patch not in [p for p, _ in expect]:
                        expect.append((patch, nb))
                got = list(zip(opt_patch[s, t, : opt_count[s, t]].tolist(), opt_nb[s, t, : opt_count[s, t]].tolist()))
                assert got == expect, (name, s, t)
                t += 1
            assert n_turns[s] == t, (name, s)
        tested += 1
    assert tested >= 3
