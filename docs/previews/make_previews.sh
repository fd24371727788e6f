#!/bin/sh
# Regenerate the README previews from a fresh `patchwork build` (needs pdftoppm from poppler-utils).
# Usage: sh docs/previews/make_previews.sh   (from the repository root)
set -eu
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
patchwork build --out "$work/output" > /dev/null
out="$work/output"
snap() {  # snap PDF PAGE DPI NAME
    pdftoppm -png -r "$3" -f "$2" -l "$2" -singlefile "$out/$1" "$work/$4"
    cp "$work/$4.png" "$here/$4.png"
}
snap doodle-pad.pdf 1 75 doodle-sheet
snap doodle-cards.pdf 1 60 doodle-cards
snap classic-kit.pdf 5 60 classic-time-board
snap classic-kit.pdf 7 55 classic-tiles
snap express-kit.pdf 9 55 express-tiles
snap automa-cards.pdf 1 60 automa-cards
ls -l "$here"/*.png
