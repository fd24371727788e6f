"""The simulator: seeds and shards (the one unit of work of every batch of games, the workbench's
too), local and Dask backends, and the JSON documents of simulation and balance experiments
(toolkit.reports renders them as Markdown and PDF).

Entry points: `toolkit.sim.experiment.prepare/run` and the documents built from them; the CLI
commands `patchwork simulate` and `patchwork balance` (toolkit.cli.sim_cmds) are thin wrappers.
"""
