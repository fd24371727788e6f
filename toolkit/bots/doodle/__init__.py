"""The Doodle bots: compiled choosers over the Doodle kernel, the turn loop that plays them, and
their Bot wrappers for validated games.

- `greedy` (toolkit.bots.doodle.greedy): the fast tier, a packing pre-filter, one ply and a
  one-card look-ahead.
- `expert` (toolkit.bots.doodle.expert): the strong tier, a two-turn expectimax over the die.
- `loop` (toolkit.bots.doodle.loop): `play_doodle`, the one compiled Doodle turn loop the
  simulator and the tests run.

Every module here takes `njit` from toolkit.jit, so numba's cache is keyed by their source too.
"""
