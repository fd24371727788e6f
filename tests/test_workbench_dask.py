"""Workbench runs on a real local Dask cluster give the same files as local workers."""
from __future__ import annotations

import distributed
import pytest

from cli_helpers import ok


@pytest.fixture(scope="module")
def scheduler():
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


@pytest.mark.parametrize("command", [
    ("sweep", "classic", "--set", "patches.P05.cost=1,5", "--bots", "random,random", "--games", "20"),
    ("price", "classic", "P05", "--values", "0,3", "--bots", "random,random", "--games", "20"),
    ("ladder", "random", "greedy", "--games", "10"),
], ids=lambda c: c[0])
@pytest.mark.slow
def test_workbench_on_dask_matches_local(tmp_path, scheduler, command):
    local, dask = tmp_path / "local", tmp_path / "dask"
    ok(*command, "--seed", "6", "--out", str(local), "--no-progress")
    ok(*command, "--seed", "6", "--scheduler", scheduler, "--out", str(dask), "--no-progress")
    for path in sorted(local.iterdir()):
        assert path.read_bytes() == (dask / path.name).read_bytes(), path.name
