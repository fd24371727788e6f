"""The designer's workbench: fair prices, parameter sweeps, sequential tests and bot ratings.

Every tool edits a resolved edition by key path (setpath), plays the edited editions on shared
deal seeds as the simulator's shards on its backends (runner), and turns the per-deal outcomes into
a JSON document (its header: report) that toolkit.reports.workbench renders.
"""
