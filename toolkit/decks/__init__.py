"""Authoring a patch set: what a designer needs between an idea and a printed deck.

deck      the patches of an edition, a variant, a patch-set file or `polyominoes:N`
model     a linear pricing model fitted on a real deck, with R² and cross-validated error
generate  new decks of free polyominoes drawn like a reference deck, written as specs
drawing   a packing drawn as SVG, PDF or PNG

Playing a deck is an experiment of the workbench (toolkit.workbench.deckcheck: play-tests and
re-pricing); packing one is the geometry's exact cover (toolkit.geometry.cover); printing one is
`patchwork build --edition` (toolkit.render.build.edition_kit), like any edition.
"""
