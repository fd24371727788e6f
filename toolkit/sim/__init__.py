"""The simulator: compiled turn loops, seeds and shards, local and Dask backends, statistics,
balance experiments and their reports (JSON, Markdown, PDF).

Entry points: `toolkit.sim.experiment.prepare/run` and the documents built from them; the CLI
commands `patchwork simulate` and `patchwork balance` (toolkit.cli.sim_cmds) are thin wrappers.
"""
