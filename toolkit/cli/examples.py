"""One to three examples per command, shown at the end of its --help and in the command reference.

Keyed by command path (`render pad`, `deck check`); toolkit.cli.habits attaches them when the app
is built, so no command module carries its own. Files the examples name (`my-variant.yaml`,
`my-deck.yaml`, `game.json`) are the ones `patchwork init` and `patchwork play --record` write;
tests/test_cli_habits.py holds every command to having examples that parse.
"""
from __future__ import annotations

EXAMPLES: dict[str, tuple[str, ...]] = {
    "": (
        "patchwork build",
        "patchwork play classic --seed 7 --bots human,greedy",
        "patchwork init variant my-variant",
    ),
    "validate": (
        "patchwork validate",
        "patchwork validate my-variant.yaml",
        "patchwork validate my-variant.yaml --watch",
    ),
    "schema": (
        "patchwork schema --out spec.schema.json",
    ),
    "shape": (
        "patchwork shape '##./.##'",
        "patchwork shape '###/#.#' --deck classic",
        "patchwork shape '##./.##' --board 8x8 --json",
    ),
    "init": (
        "patchwork init variant my-variant",
        "patchwork init deck my-deck --from classic",
        "patchwork init edition my-edition --from doodle",
    ),
    "build": (
        "patchwork build",
        "patchwork build --paper letter --bleed 1/8in --out kits",
        "patchwork build --edition my-deck.yaml --theme my-look.yaml",
    ),
    "deal": (
        "patchwork deal classic --seed 7",
        "patchwork deal doodle --seed 7 --players 3 --json",
    ),
    "replay": (
        "patchwork replay game.json",
        "patchwork replay game.json --step",
    ),
    "play": (
        "patchwork play classic --bots human,mcts --record game.json",
        "patchwork play doodle",
        "patchwork play --resume game.json",
    ),
    "show": (
        "patchwork show game.json --move 12",
        "patchwork show game.json --move 12 --out move12.png",
        "patchwork show game.json --out game.gif",
    ),
    "compile": (
        "patchwork compile",
        "patchwork compile --processes 1",
    ),
    "simulate": (
        "patchwork simulate classic --bots greedy,random --games 2000 --seed 1",
        "patchwork simulate doodle --bots greedy --games 200 --json",
        "patchwork simulate my-variant.yaml --games 2000 --workers 2 --out runs/mine",
    ),
    "balance": (
        "patchwork balance classic six-buttons --bots greedy,greedy --games 2000",
        "patchwork balance classic my-variant.yaml --sprt score",
        "patchwork balance doodle doodle-4-rounds --bots greedy --games 200 --json",
    ),
    "price": (
        "patchwork price my-variant.yaml N01",
        "patchwork price classic P05 --bots greedy,greedy --bots mcts:200,mcts:200",
        "patchwork price classic P05 --over time --values 0..6 --games 2000",
    ),
    "sweep": (
        "patchwork sweep classic --set starting_buttons=3..8 --games 400",
        "patchwork sweep classic --set starting_buttons=3..8 --set patches.P05.cost=0..6:2 --out runs/grid",
        "patchwork sweep doodle --set rounds=2..4 --games 100 --json",
    ),
    "tune": (
        "patchwork tune classic --set starting_buttons=0..10 --set empty_penalty=1..3 --target seat-win=0.5 --budget 60",
        "patchwork tune classic --set patches.P05.cost=0..8 --set patches.P05.time=0..6 --target buy-rate=0.5~0.03 --watch P05 --refine 40",
        "patchwork tune classic --set starting_buttons=2..8 --set bonus.points=0..14 --target bonus=0.6 --out runs/tuned",
    ),
    "feel": (
        "patchwork feel classic --games 200",
        "patchwork feel classic six-buttons --games 2000 --workers 2 --out runs/feel",
        "patchwork feel express --bots greedy,greedy --games 50 --decisive --json",
    ),
    "ladder": (
        "patchwork ladder random greedy mcts:200 --edition express --games 400",
        "patchwork ladder greedy mcts:0.1s --threads 2 --games 40 --json",
        "patchwork ladder mcts:0.05s mcts:0.05s:2t --games 100",
    ),
    "studio": (
        "patchwork studio",
        "patchwork studio my-specs --open",
    ),
    "render": (
        "patchwork render pad --sheets 40",
        "patchwork render kit classic --backs --paper letter",
        "patchwork render tiles my-variant.yaml --watch",
    ),
    "export": (
        "patchwork export tts classic",
        "patchwork export tts my-deck.yaml --theme my-look.yaml --relative",
    ),
    "export tts": (
        "patchwork export tts classic",
        "patchwork export tts anniversary --solo",
        "patchwork export tts my-deck.yaml --out playtest --relative",
    ),
    "render sheet": (
        "patchwork render sheet doodle-8x8 --format svg",
        "patchwork render sheet --format png --dpi 150",
    ),
    "render pad": (
        "patchwork render pad --sheets 40 --simplex --paper letter --numbered",
        "patchwork render pad doodle-4-rounds --sheets 20",
    ),
    "render cards": (
        "patchwork render cards --backs --flip short --back-offset 0.5x-1mm --proof",
        "patchwork render cards --layout single --card-size poker --cmyk",
        "patchwork render cards --template poker-png --backs",
    ),
    "render tiles": (
        "patchwork render tiles express --backs",
        "patchwork render tiles my-variant.yaml --watch",
        "patchwork render tiles classic --template tiles-diecut",
    ),
    "render automa": (
        "patchwork render automa anniversary --layout single --card-size poker --cmyk",
        "patchwork render automa anniversary --template poker-png --backs",
    ),
    "render tokens": (
        "patchwork render tokens classic --backs",
        "patchwork render tokens anniversary --solo --out tokens.pdf",
    ),
    "render rules": (
        "patchwork render rules express",
        "patchwork render rules my-variant.yaml --watch",
    ),
    "render boards": (
        "patchwork render boards my-variant.yaml",
        "patchwork render boards classic --paper a5",
    ),
    "render kit": (
        "patchwork render kit christmas --backs --paper letter",
        "patchwork render kit doodle",
        "patchwork render kit anniversary --solo --backs",
    ),
    "render theme": (
        "patchwork render theme --out my-look.yaml",
    ),
    "render challenge": (
        "patchwork render challenge --seed 2024",
        "patchwork render challenge --seed 2024 --count 7",
    ),
    "deck": (
        "patchwork deck fit classic",
        "patchwork deck check my-deck.yaml --games 200",
        "patchwork deck pack polyominoes:5 --board 6x10 --count",
    ),
    "deck fit": (
        "patchwork deck fit classic",
        "patchwork deck fit my-deck.yaml --json",
    ),
    "deck generate": (
        "patchwork deck generate --like classic --count 33 --seed 7 --out new-patches.yaml",
    ),
    "deck check": (
        "patchwork deck check my-deck.yaml --out check",
        "patchwork deck check my-deck.yaml --tune",
        "patchwork deck check my-deck.yaml --tune --all-patches",
    ),
    "deck pack": (
        "patchwork deck pack classic --out fill.svg",
        "patchwork deck pack polyominoes:5 --board 6x10 --count",
    ),
}
