"""The Dask backend against a real local cluster: the same shards give the same results."""
from __future__ import annotations

import json

import distributed
import pytest

from toolkit.sim import experiment


@pytest.fixture(scope="module")
def scheduler():
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def _doc(refs, bots, games, seed, workers=1, scheduler=None):
    request = experiment.prepare(refs, bots, games, seed, workers, scheduler)
    outcome = experiment.run(request)
    if len(refs) == 1:
        return experiment.simulation_document(request, outcome, "cmd")
    return experiment.balance_document(request, outcome, "cmd")


@pytest.mark.slow
def test_dask_cluster_gives_the_same_simulation_as_local_processes(scheduler):
    local = _doc(["classic"], "greedy,random", 8, 21, workers=1)
    dask = _doc(["classic"], "greedy,random", 8, 21, scheduler=scheduler)
    assert json.dumps(dask) == json.dumps(local)


@pytest.mark.slow
def test_dask_cluster_gives_the_same_balance_as_local(scheduler):
    local = _doc(["doodle", "doodle-8x8"], "random", 24, 5, workers=1)
    dask = _doc(["doodle", "doodle-8x8"], "random", 24, 5, scheduler=scheduler)
    assert json.dumps(dask) == json.dumps(local)
    assert dask["variants"][0]["differences"][0]["metric"] == "score"
