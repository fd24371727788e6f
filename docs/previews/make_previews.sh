#!/bin/sh
# Regenerate the README previews with the toolkit's own PNG export.
# Usage: sh docs/previews/make_previews.sh   (from the repository root, with `patchwork` installed)
set -eu
here=$(dirname "$0")
snap() {  # snap NAME DPI PAGE render-arguments...
    name=$1 dpi=$2 page=$3
    shift 3
    patchwork render "$@" --format png --dpi "$dpi" --page "$page" --out "$here/$name.png" --force > /dev/null
}
snap doodle-sheet 75 1 sheet doodle
snap doodle-challenge 75 2 challenge doodle --seed 2024
snap classic-time-board 60 3 boards classic
snap classic-tiles 55 1 tiles classic --no-cut-lines
snap classic-tokens 60 1 tokens classic --no-cut-lines
snap automa-cards 60 1 automa anniversary
ls -l "$here"/*.png
