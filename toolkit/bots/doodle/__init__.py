"""The Doodle bots: compiled choosers over the Doodle kernel and their Bot wrappers for validated
games (the compiled turn loop that plays them is the family's: toolkit.families.doodle.loop).

The bots:
- `greedy` (toolkit.bots.doodle.greedy): the fast tier, a packing pre-filter, one ply and a
  one-card look-ahead.
- `expert` (toolkit.bots.doodle.expert): the strong tier, a two-turn expectimax over the die, then
  an exact search over every die sequence in the last round.

Their parts, each asking the kernel (toolkit.games.doodle.kernel) for the rules it needs:
- `weights`: the named weights, one float array per tier;
- `features`: what the evaluation sees of a sheet, and `evaluate`;
- `shortlist`: the step's legal drawings, pre-filtered and valued one ply deep;
- `lookahead`: the expected value of the next turns' drawings over the die;
- `endgame`: the last round's search over the die sequences, and `cover`, its exact cover search.

Every module here takes `njit` from toolkit.jit, so numba's cache is keyed by their source too.
"""
