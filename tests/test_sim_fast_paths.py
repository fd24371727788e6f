"""The simulator's batched seeding and tallies give the numbers of their one-at-a-time definitions:
deal_generators against derive_seed/seed_state call by call, tally_time_track against the sums
written out game by game."""
import numpy as np
import pytest

from toolkit.families import family_of
from toolkit.families.timetrack.results import tally_time_track
from toolkit.games.rng import derive_seed, seed_state
from toolkit.sim import experiment
from toolkit.sim.shards import deal_generators
from toolkit.stats import Tally


@pytest.mark.parametrize("seed, start, stop, per_deal", [
    (0, 0, 1, 1), (0, 0, 40, 2), (12345, 777, 820, 2), (2**62, 5, 30, 1), (3, 10, 10, 2), (7, 0, 9, 3),
])
def test_deal_generators_are_derive_seed_and_seed_state(seed, start, stop, per_deal):
    game, bots, swap = deal_generators(seed, start, stop, per_deal)
    games = (stop - start) * per_deal
    assert game.shape == bots.shape == (games, 4) and swap.shape == (games,)
    assert game.dtype == bots.dtype == swap.dtype == np.int64
    assert game.flags.c_contiguous and bots.flags.c_contiguous
    g = 0
    for deal in range(start, stop):
        deal_seed = derive_seed(seed, deal)
        for j in range(per_deal):
            assert game[g].tolist() == seed_state(deal_seed).tolist()
            assert bots[g].tolist() == seed_state(deal_seed, 1 + j).tolist()
            assert swap[g] == j
            g += 1


def _reference_tally(out: dict, swap: np.ndarray) -> Tally:
    """tally_time_track's sums, written out game by game and deal by deal in plain Python."""
    t = Tally()
    n = len(swap)
    per = int(max(swap)) + 1 if n else 1
    deals = [range(d * per, (d + 1) * per) for d in range(n // per)]
    t.add("deals", len(deals))
    t.add("games", n)

    def seat_of(g, bot):
        return bot ^ int(swap[g])

    def column(name, value, squares=True, width=None):
        """value(g) -> int or list per game: the sum, sum of squares and sum of squared deal totals."""
        rows = [np.asarray(value(g), dtype=np.int64) for g in range(n)]
        zero = np.zeros(width or (), dtype=np.int64)
        t.add(name, sum(rows, zero))
        if squares:
            t.add(f"{name}_sq", sum((r * r for r in rows), zero))
        t.add(f"{name}_dsq", sum((sum((rows[g] for g in d), zero) ** 2 for d in deals), zero))

    score, winner, bonus = out["score"], out["winner"], out["bonus_owner"]
    column("seat.wins", lambda g: [int(winner[g] == 0), int(winner[g] == 1)], False, 2)
    column("bot.wins", lambda g: [int(winner[g] == seat_of(g, b)) for b in range(2)], False, 2)
    column("seat.score", lambda g: [int(score[g, 0]), int(score[g, 1])], width=2)
    column("bot.score", lambda g: [int(score[g, seat_of(g, b)]) for b in range(2)], width=2)
    column("seat.margin", lambda g: int(score[g, 0]) - int(score[g, 1]))
    column("bot.margin", lambda g: int(score[g, seat_of(g, 0)]) - int(score[g, seat_of(g, 1)]))
    t.add("ties", sum(int(score[g, 0] == score[g, 1]) for g in range(n)))
    column("plies", lambda g: int(out["plies"][g]))
    column("seat.first_finisher", lambda g: [int(out["first_finisher"][g] == s) for s in range(2)], False, 2)
    column("seat.bonus", lambda g: [int(bonus[g] == s) for s in range(2)], False, 2)
    column("bot.bonus", lambda g: [int(bonus[g] == seat_of(g, b)) for b in range(2)], False, 2)
    t.add("bonus_dsq", sum(sum(int(bonus[g] >= 0) for g in d) ** 2 for d in deals))
    for key in ("buttons", "empty", "leather", "income"):
        column(f"seat.{key}", lambda g: [int(out[key][g, 0]), int(out[key][g, 1])], width=2)
        t.add(f"bot.{key}", [sum(int(out[key][g, seat_of(g, b)]) for g in range(n)) for b in range(2)])
    for seat in range(2):
        t.count(f"score.seat{seat}", [int(score[g, seat]) for g in range(n)])
        t.count(f"score.bot{seat}", [int(score[g, seat_of(g, seat)]) for g in range(n)])
    t.count("margin.seat", [int(score[g, 0]) - int(score[g, 1]) for g in range(n)])
    t.count("margin.bot", [int(score[g, seat_of(g, 0)]) - int(score[g, seat_of(g, 1)]) for g in range(n)])
    t.count("plies", [int(out["plies"][g]) for g in range(n)])
    patches = out["buy_seat"].shape[1]
    buyer = [[int(out["buy_seat"][g, i]) for i in range(patches)] for g in range(n)]
    ply = [[int(out["buy_ply"][g, i]) if buyer[g][i] >= 0 else 0 for i in range(patches)] for g in range(n)]
    won = [[int(buyer[g][i] >= 0 and buyer[g][i] == winner[g]) for i in range(patches)] for g in range(n)]

    def per_patch(f):
        return [f(i) for i in range(patches)]

    def deal_total(rows, d, i):
        return sum(rows[g][i] for g in d)

    bought = [[int(b >= 0) for b in row] for row in buyer]
    t.add("patch.bought", per_patch(lambda i: sum(bought[g][i] for g in range(n))))
    t.add("patch.bought_dsq", per_patch(lambda i: sum(deal_total(bought, d, i) ** 2 for d in deals)))
    t.add("patch.by_seat", per_patch(lambda i: [sum(buyer[g][i] == s for g in range(n)) for s in range(2)]))
    t.add("patch.by_bot", per_patch(lambda i: [sum(buyer[g][i] >= 0 and buyer[g][i] ^ int(swap[g]) == b
                                                   for g in range(n)) for b in range(2)]))
    t.add("patch.ply", per_patch(lambda i: sum(ply[g][i] for g in range(n))))
    t.add("patch.ply_sq", per_patch(lambda i: sum(ply[g][i] ** 2 for g in range(n))))
    t.add("patch.buyer_won", per_patch(lambda i: sum(won[g][i] for g in range(n))))
    t.add("patch.buyer_won_dsq", per_patch(lambda i: sum(deal_total(won, d, i) ** 2 for d in deals)))
    t.add("patch.buyer_won_bought", per_patch(
        lambda i: sum(deal_total(won, d, i) * deal_total(bought, d, i) for d in deals)))
    t.add("patch.ply_dsq", per_patch(lambda i: sum(deal_total(ply, d, i) ** 2 for d in deals)))
    t.add("patch.ply_bought", per_patch(
        lambda i: sum(deal_total(ply, d, i) * deal_total(bought, d, i) for d in deals)))
    return t


@pytest.mark.parametrize("edition, bots, deals", [
    ("classic", "random,random", 30), ("anniversary", "random,automa", 25), ("express", "random,random", 20),
])
def test_time_track_tally_is_the_game_by_game_sums(edition, bots, deals):
    request = experiment.prepare([edition], bots, 2, 0, 1, automa_level=2)
    family = family_of(request.editions[0])
    game, bot, swap = deal_generators(4, 0, deals, request.per_deal)
    out = family.play(request.editions[0], request.bots, game, bot, swap)
    assert tally_time_track(out, swap).equals(_reference_tally(out, swap))
    # games without a winner (a shared tie) and without a first finisher count for no seat
    out["winner"][::3] = -1
    out["first_finisher"][::5] = -1
    assert tally_time_track(out, swap).equals(_reference_tally(out, swap))
    empty = {key: values[:0] for key, values in out.items()}
    assert tally_time_track(empty, swap[:0]).equals(_reference_tally(empty, swap[:0]))
