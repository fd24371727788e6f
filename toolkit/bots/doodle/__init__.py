"""The Doodle bots: compiled choosers over the Doodle kernel and their Bot wrappers for validated
games (the compiled turn loop that plays them is the family's: toolkit.families.doodle.loop).

- `greedy` (toolkit.bots.doodle.greedy): the fast tier, a packing pre-filter, one ply and a
  one-card look-ahead.
- `expert` (toolkit.bots.doodle.expert): the strong tier, a two-turn expectimax over the die.

Every module here takes `njit` from toolkit.jit, so numba's cache is keyed by their source too.
"""
