"""Seeds, shards and backends: results depend on the seed only, never on how the work is split."""
import json

import numpy as np
import pytest

from toolkit.games.rng import derive_seed, seed_state
from toolkit.games.timetrack import kernel as tk
from toolkit.games.timetrack.tables import P_ACTIONS, tables_for
from toolkit.sim import experiment
from toolkit.sim.botspec import parse_bots, seat_bots
from toolkit.sim.shards import Shard, deal_generators, make_shards, merge_results, plan_shards, run_shard, shard_size
from toolkit.specs import load_edition

from positions import doodle_kernel_over, doodle_kernel_round_scores, timetrack_kernel_buy_seats


@pytest.fixture(scope="module")
def classic():
    return load_edition("classic")


def _doc(refs, bots, games, seed, workers=1, scheduler=None, kind="simulation"):
    request = experiment.prepare(refs, bots, games, seed, workers, scheduler)
    outcome = experiment.run(request)
    if kind == "simulation":
        return experiment.simulation_document(request, outcome, "cmd")
    return experiment.balance_document(request, outcome, "cmd")


def test_deal_generators_pair_seat_swapped_games():
    game, bots, swap = deal_generators(11, 3, 6, 2)
    assert game.shape == (6, 4) and swap.tolist() == [0, 1] * 3
    for d in range(3):
        expected = seed_state(derive_seed(11, 3 + d))
        assert np.array_equal(game[2 * d], expected) and np.array_equal(game[2 * d + 1], expected)
        assert not np.array_equal(bots[2 * d], bots[2 * d + 1])
    solo, _, no_swap = deal_generators(11, 3, 6, 1)
    assert np.array_equal(solo[0], game[0]) and not no_swap.any()


def test_plan_covers_every_deal_once_and_ignores_workers(classic):
    bots = parse_bots("random,random", classic)
    for deals in (1, 7, 64, 1000, 12345):
        plan = plan_shards(deals, bots)
        assert plan[0][0] == 0 and plan[-1][1] == deals
        assert all(a[1] == b[0] for a, b in zip(plan, plan[1:]))


def test_a_time_budget_is_planned_by_the_time_it_spends_and_never_by_the_workers(classic):
    def size(bots, deals=1000):
        return shard_size(deals, parse_bots(bots, classic))

    # About 2 x 21 moves x 1 ms per deal: several deals per shard, as for a search of similar length.
    assert size("random,mcts:0.001s") == size("random,mcts:20") > 1
    assert size("random,mcts:0.001s", 10**6) > size("random,mcts:0.002s", 10**6) > size("random,mcts:0.01s", 10**6)
    # A deal at half a second per move lasts some 20 s: a shard of its own is as short as a shard gets.
    assert size("random,mcts:0.5s") == 1
    for bots in ("random,mcts:0.001s", "greedy,mcts:0.5s"):
        for deals in (1, 7, 1000):
            plan = plan_shards(deals, parse_bots(bots, classic))
            assert plan[0][0] == 0 and plan[-1][1] == deals
            assert all(a[1] == b[0] for a, b in zip(plan, plan[1:]))
        requests = [experiment.prepare(["classic"], bots, 2000, 7, workers) for workers in (1, 2)]
        plans = [[(s.start, s.stop) for s in make_shards(r.editions, r.seating, r.seed, r.deals)] for r in requests]
        assert plans[0] == plans[1]


def test_merged_shards_equal_one_shard_of_everything(classic):
    bots = seat_bots("random,random", classic)
    editions = (classic, load_edition("six-buttons"))
    whole = run_shard(Shard(0, editions, bots, 5, 0, 20, keep_games=True, watch="P05"))
    parts = merge_results(run_shard(Shard(i, editions, bots, 5, a, b, keep_games=True, watch="P05"))
                          for i, (a, b) in enumerate([(0, 7), (7, 8), (8, 20)]))
    assert (parts.deals, parts.games) == (20, 40)
    for mine, theirs in zip(parts.tallies + parts.paired, whole.tallies + whole.paired):
        assert mine.equals(theirs)
    # The games a workbench shard keeps are the same games, in deal order, however the deals are split.
    assert len(parts.per_game) == len(whole.per_game) == 2
    for mine, theirs in zip(parts.per_game, whole.per_game):
        for name in ("score", "winner", "plies", "bonus", "buy_seat", "buy_ply"):
            assert np.array_equal(getattr(mine, name), getattr(theirs, name)), name
    assert (whole.per_game[0].buy_seat >= 0).any()
    assert run_shard(Shard(0, editions, bots, 5, 0, 3)).per_game == []  # simulate and balance keep none


def test_loop_plays_the_kernel_rules_move_for_move(classic):
    """Replaying a deal with the kernel's own functions gives the loop's results field by field."""
    tables = tables_for(classic).arrays
    bots = parse_bots("random,random", classic)
    game_rngs, bot_rngs, swap = deal_generators(3, 0, 2, 2)
    from toolkit.families.timetrack.loop import play_time_track

    out = play_time_track(tables, bots, game_rngs, bot_rngs, swap)
    for g in range(4):
        rng, bot_rng = game_rngs[g].copy(), bot_rngs[g].copy()
        s, q = tk.new_state(tables, rng)
        scratch = np.zeros(int(tables.params[P_ACTIONS]), dtype=np.int64)
        plies = 0
        while not tk.is_over(tables, s):
            tk.apply(tables, s, q, tk.random_action(tables, s, q, bot_rng, scratch), rng)
            plies += 1
        assert out["plies"][g] == plies
        assert out["score"][g].tolist() == [tk.score(tables, s, 0), tk.score(tables, s, 1)]
        assert out["winner"][g] == tk.winner(tables, s)
        assert out["buy_seat"][g].tolist() == timetrack_kernel_buy_seats(s, len(classic.all_patches()))
        assert out["leather"][g].sum() <= len(classic.rules.time_track.leather_patches)
    # Every game of a deal starts from the same circle.
    assert (out["buy_seat"][0] >= 0).sum() > 0


def test_same_seed_same_figures_other_seed_other_figures():
    a = _doc(["classic"], "random,random", 40, 9)
    b = _doc(["classic"], "random,random", 40, 9)
    c = _doc(["classic"], "random,random", 40, 10)
    assert json.dumps(a) == json.dumps(b)
    assert a["figures"] != c["figures"]


@pytest.mark.slow
def test_two_worker_processes_give_the_same_bytes_as_one():
    one = _doc(["classic", "revised-leather"], "random,random", 64, 4, workers=1, kind="balance")
    two = _doc(["classic", "revised-leather"], "random,random", 64, 4, workers=2, kind="balance")
    assert json.dumps(one) == json.dumps(two)


def test_doodle_loop_plays_the_kernel_rules_move_for_move():
    """Replaying Doodle games with the kernel's own functions gives the loop's results."""
    from toolkit.games.doodle import kernel as dk
    from toolkit.families.doodle.loop import play_doodle

    doodle = load_edition("doodle")
    bots = parse_bots("random,random", doodle)
    game_rngs, bot_rngs, _ = deal_generators(8, 0, 2, 1)
    out = play_doodle(doodle, bots, game_rngs, bot_rngs)
    tables = dk.build_tables(doodle)
    act = np.zeros(dk.NA, dtype=np.int64)
    for g in range(2):
        st, occ = dk.new_state(tables, 2, game_rngs[g].copy())
        bot_rng = bot_rngs[g].copy()
        while not doodle_kernel_over(st):
            dk.choose_random(tables, st, occ, bot_rng, act)
            assert dk.check_action(tables, st, occ, act) == dk.R_OK
            dk.apply_action(tables, st, occ, act)
        assert out["score"][g].tolist() == dk.final_scores(tables, st, occ).tolist()
        assert out["empty"][g].tolist() == [dk.empty_cells(tables, st, occ, k) for k in range(2)]
        assert out["round_scores"][g].sum(axis=1).tolist() == [
            sum(doodle_kernel_round_scores(st, k, doodle.rules.rounds)) for k in range(2)]


@pytest.mark.slow
def test_compiled_loops_equal_the_loops_run_as_plain_python(tmp_path):
    """NUMBA_DISABLE_JIT=1 runs the same loops uncompiled: the results must be byte-identical."""
    import os
    import subprocess
    import sys

    from typer.testing import CliRunner

    from toolkit.cli.app import app

    for edition, bots, games in (("classic", "greedy,random", "2"), ("doodle", "random,random", "1")):
        args = ["simulate", edition, "--bots", bots, "--games", games, "--seed", "12", "--no-progress"]
        jit = CliRunner().invoke(app, [*args, "--out", str(tmp_path / f"{edition}-jit")])
        assert jit.exit_code == 0, jit.output
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        plain = subprocess.run([sys.executable, "-m", "toolkit", *args, "--out", str(tmp_path / f"{edition}-py")],
                               env=env, capture_output=True, text=True, timeout=300)
        assert plain.returncode == 0, plain.stderr
        assert (tmp_path / f"{edition}-jit" / "results.json").read_bytes() == (tmp_path / f"{edition}-py" / "results.json").read_bytes()


def test_a_doodle_expert_deal_is_a_shard_of_its_own():
    # The expert spends about 3.5 seconds a game: a shard of more would run for minutes.
    assert shard_size(1000, parse_bots("expert", load_edition("doodle"))) == 1
    assert shard_size(1000, parse_bots("greedy", load_edition("doodle"))) > 1


def test_every_run_carries_the_seating_it_was_given_and_never_seats_the_bots_again(classic, monkeypatch):
    """The seating made from the `--bots` text reaches the shards, the workbench's runs and every
    document unchanged: a seating no family would make (no seat swap for two time-track bots, a
    rule sentence of its own) comes out as given, and asking the family to seat again fails."""
    from contextlib import contextmanager

    from toolkit.families import Seating, family_of
    from toolkit.workbench import documents, price, runner, setpath, sweep

    seated = seat_bots("random,random", classic)
    assert seated.games_per_deal == 2
    own = Seating(seated.bots, 1, "a rule sentence no family writes: one game a deal, seats fixed")

    def seat_again(*args, **kwargs):
        raise AssertionError("the bots were seated again instead of the seating being passed along")

    monkeypatch.setattr(type(family_of(classic)), "seating", seat_again)
    with pytest.raises(AssertionError, match="seated again"):
        seat_bots("random,random", classic)

    plan = make_shards((classic,), own, 5, 6)
    assert all(shard.seating is own and shard.per_deal == 1 for shard in plan)
    assert merge_results(run_shard(shard) for shard in plan).games == 6

    request = experiment.Request(("classic",), (classic,), own, 6, 5, 1, None)
    doc = experiment.simulation_document(request, experiment.run(request), "cmd")
    assert (doc["seats"], doc["games_per_deal"], doc["games"], doc["deals"]) == (own.rule, 1, 6, 6)

    played = runner.play((classic,), own, 5, 0, 6)
    assert (played.games, played.per_deal, played.swap.tolist()) == (6, 1, [0] * 6)

    rows, played = sweep.run(classic, [{"starting_buttons": 5}], own, 5, 6, 1, None)
    assert played.games == 6 and rows[0]["figures"]["games"] == 6

    body, plays = price.run(price.PriceRequest(classic, "P05", "cost", (1, 2), own, 6, 5, fixed=True), 1, None)
    assert plays.per_deal == 1 and body["stopping"]["games"] == 6 and {v["games"] for v in body["values"]} == {6}

    @contextmanager
    def progress(total):
        yield lambda games: None

    setting = setpath.parse_setting("starting_buttons=5,6", classic)
    run = documents.SweepRun("classic", classic, ("starting_buttons=5,6",), (setting,), tuple(setpath.grid([setting])),
                             "random,random", own, 6, 5)
    doc = documents.sweep(run, 1, None, progress)
    assert (doc["seats"], doc["games_per_deal"], doc["games"]) == (own.rule, 1, 6)
