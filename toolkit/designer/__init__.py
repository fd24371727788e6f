"""Custom patch decks: what a designer needs between an idea and a printed deck.

deck      the patches of an edition, a variant, a patch-set file or `polyominoes:N`
model     a linear pricing model fitted on a real deck, with R² and cross-validated error
generate  new decks of free polyominoes drawn like a reference deck, written as specs
check     bot play-tests against the base (the one place that uses toolkit.sim) and re-pricing
pack      exact cover: fills, solution counts with symmetry, largest area, reach
drawing   a packing drawn as SVG, PDF or PNG
printing  the print-and-play kit of one edition or variant (`patchwork build --edition`)
"""
