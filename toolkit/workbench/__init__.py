"""The designer's workbench: fair prices, parameter sweeps, sequential tests and bot ratings.

Every tool edits a resolved edition by key path (setpath), plays the edited editions on shared
deal seeds through the simulator's backends (runner), and turns the per-deal outcomes into a JSON
document that the reports render (report).
"""
