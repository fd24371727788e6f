"""The play prompt's `hint` for the time-track games (against a person or the Automa), from the
`mcts` search: the move, what the search expects of it, and why in the game's own words.

The move is the one the search bot plays (`toolkit.bots.mcts.search`, the entry point MctsBot
calls, with HINT_ITERATIONS iterations and a generator of the hint's own, so asking for a hint
never changes the bots' games). The root's candidates (`mcts.candidates`, the same reduced set
in the same order as the search's root) with their share of the search's visits give the
alternatives it weighed. What it expects: the game is played on from the position after the
move PLAYOUTS times, both seats as the greedy bot (`greedy.choose_with`) with one move in ten at
random (against the Automa: none at random, its cards bring the spread), all through the kernel; the mover's share of wins and mean
lead at the end are the win chance and the margin. (The search's own values at the root would
say what it expects more directly; `mcts.search` returns only the root's visits.) Why: what the
move does to the mover's buttons, income still to come, empty cells, the bonus square and turn
order, read from the validated game before and after the move, and what it leaves the opponent
in the market window.

A hint knows what the player knows: the Automa's draw pile, which the state holds in order, is
shuffled (from the hint's own generator) before the search and the games played on see it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

HINT_ITERATIONS = 3000
"""Search iterations of a hint (about a third of a second on one core once compiled)."""
HINT_RNG_SALT = 7
"""The hint's generator: seed_state(seed, HINT_RNG_SALT, ply), apart from the game's and the bots'."""
PLAYOUTS = 60
"""Games played on from the position after the move, for what the move leads to."""
RANDOM_SHARE = 0.1
"""In those games, the share of moves made at random rather than as the greedy bot would (the
spread a real opponent brings; with the game's own chance, the Automa's cards and the Express
late patches)."""
SHOWN_ALTERNATIVES = 3


def hidden_shuffled(game: Any) -> np.ndarray:
    """The game's state with what a player cannot know shuffled: the order of the Automa's draw
    pile, which the state holds (the search and the games played on would otherwise know the
    Automa's next cards)."""
    from toolkit.games.timetrack import kernel as k

    state = game.state.copy()
    left = int(state[k.S_DRAW_LEN])
    if game.automa_level and left > 1:
        order = np.random.default_rng([int(game.seed) % 2**63, HINT_RNG_SALT, len(game.history)]).permutation(left)
        # Sorted first, so the hint is the same whatever order the pile really has.
        state[k.S_DRAW:k.S_DRAW + left] = np.sort(state[k.S_DRAW:k.S_DRAW + left])[order]
    return state


class SearchHint:
    """Answers `hint` at the time-track prompt (toolkit.families.RulesFamily.hinter)."""

    name = "mcts"

    def __init__(self, iterations: int = HINT_ITERATIONS, playouts: int = PLAYOUTS):
        self.iterations = int(iterations)
        self.playouts = int(playouts)

    # ----- the search's view --------------------------------------------------------------------

    def analyse(self, game: Any) -> dict[str, Any]:
        """The move and what it leads to: `action`, `code`, `alternatives` [(action text, share of
        the search's visits)], `forced`, and over the continuations from the position after the
        move, `win` (the mover's share of wins, a shared victory half) and `margin` (the mover's
        mean lead in points at the end)."""
        from toolkit.bots import greedy, mcts
        from toolkit.bots.packing import MAX_ROWS, N_COUNTS
        from toolkit.games.rng import seed_state
        from toolkit.games.timetrack import kernel as k
        from toolkit.games.timetrack.tables import P_ACTIONS, P_WINDOW

        t = game.tables.arrays
        state, quilts = hidden_shuffled(game), game.quilts
        seat = game.current_player
        params = mcts.PARAMS.copy()
        weights = greedy.WEIGHTS.copy()
        top_k = max(int(params[mcts.M_TOP_K]), 1)
        max_children = 1 + int(t.params[P_WINDOW]) * top_k + top_k
        # The root's candidates, in the order of the search's root children.
        actions = np.empty(max_children, dtype=np.int64)
        priors = np.empty(max_children, dtype=np.float64)
        n = int(mcts.candidates(t, state, quilts, weights, top_k, actions, priors, np.zeros(MAX_ROWS, dtype=np.int64),
                                np.zeros(MAX_ROWS, dtype=np.int64), np.zeros(MAX_ROWS + 1, dtype=np.float64),
                                np.zeros(N_COUNTS, dtype=np.int64),
                                np.zeros(max(t.bonus_masks.shape[0], 1), dtype=np.int64),
                                np.empty(top_k, dtype=np.int64), np.empty(top_k, dtype=np.float64)))
        visits = np.zeros(max_children, dtype=np.int64)
        rng = seed_state(game.seed, HINT_RNG_SALT, len(game.history))
        code = int(mcts.search(t, state.copy(), quilts.copy(), rng, self.iterations, weights, params, visits))
        total = int(visits[:n].sum())
        alternatives = []
        if total:
            order = sorted(range(n), key=lambda i: -int(visits[i]))
            alternatives = [(str(game.decode(int(actions[i]))), int(visits[i]) / total) for i in order]
        # Play on from the position after the move.
        after_s, after_q = state.copy(), quilts.copy()
        k.apply(t, after_s, after_q, code, rng)
        scratch = greedy.choose_scratch(t)
        legal = np.empty(int(t.params[P_ACTIONS]), dtype=np.int64)
        wins, lead = 0.0, 0.0
        # Against the Automa its cards bring the spread; a player made to blunder would not.
        share = 0.0 if game.automa_level else RANDOM_SHARE
        chooser = np.random.default_rng([int(game.seed) % 2**63, HINT_RNG_SALT, len(game.history)])
        for _ in range(self.playouts):
            roll_s, roll_q = after_s.copy(), after_q.copy()
            while not k.is_over(t, roll_s):
                if chooser.random() < share:
                    move = k.random_action(t, roll_s, roll_q, rng, legal)
                else:
                    move = greedy.choose_with(t, roll_s, roll_q, rng, weights, *scratch)
                k.apply(t, roll_s, roll_q, move, rng)
            result = float(k.seat0_result(t, roll_s))
            wins += result if seat == 0 else 1.0 - result
            lead += float(k.score(t, roll_s, seat) - k.score(t, roll_s, 1 - seat))
        count = max(self.playouts, 1)
        return {"action": game.decode(code), "code": code, "alternatives": alternatives,
                "win": wins / count, "margin": lead / count, "forced": n <= 1 or total == 0}

    # ----- the hint -------------------------------------------------------------------------------

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        """The move the hint gives (Bot protocol; the hint draws from its own generator)."""
        return self.analyse(game)["action"]

    def explain(self, game: Any) -> str:
        """What the search would play for the player to move, what it expects and why."""
        if game.is_over:
            return "the game is over: no hint"
        seat = game.current_player
        name = game.seat_name(seat)
        if game.automa_level and seat == 1 and not game.pending_leather:
            return "it is Automa's turn: type 'automa' to let it play (its card decides, not a choice)"
        found = self.analyse(game)
        action = found["action"]
        lines = [f"hint for {name}: {action}"]
        if found["forced"]:
            lines.append("  the only move the search considers here")
        margin = found["margin"]
        how = (f"{name} playing on as the greedy bot does, Automa by its cards" if game.automa_level else
               f"both sides playing on as the greedy bot does, one move in {round(1 / RANDOM_SHARE)} at random")
        lines.append(f"  expects: {name} wins {found['win']:.0%} of {self.playouts} games played on from there, "
                     f"{abs(margin):.0f} points {'ahead' if margin >= 0 else 'behind'} on average at the end ({how})")
        lines += ["  why: " + reason if i == 0 else "       " + reason for i, reason in enumerate(self.reasons(game, action))]
        others = [(text, share) for text, share in found["alternatives"] if text != str(action)][:SHOWN_ALTERNATIVES]
        if others:
            lines.append("  also weighed: " + ", ".join(f"{text} ({share:.0%} of the search)" for text, share in others))
        return "\n".join(lines)

    def reasons(self, game: Any, action: Any) -> list[str]:
        """What `action` does for the player to move, in the game's words."""
        from toolkit.families.timetrack.view import covered_cells
        from toolkit.families.view import largest_square
        from toolkit.games.timetrack.game import Advance, Buy, PlaceLeather

        edition = game.edition
        rules = edition.rules
        seat = game.current_player
        other = 1 - seat
        you, them = game.seat_name(seat), game.seat_name(other)
        after = game.copy()
        after.apply(action)
        marks = rules.time_track.income_marks
        before_pos, after_pos = game.positions[seat], after.positions[seat]
        penalty = edition.empty_penalty
        out: list[str] = []
        paid = 0
        if isinstance(action, Buy):
            patch = edition.patch(action.patch)
            paid = patch.cost
            out.append(f"{action.patch} costs {patch.cost} of {you}'s {game.buttons[seat]} buttons and {patch.time} "
                       f"time; it covers {patch.shape.size} cells, {patch.shape.size * penalty} points fewer lost to "
                       f"empty cells at the end ({penalty} per empty cell)")
            ahead = sum(1 for m in marks if m > after_pos)
            if patch.income:
                out.append(f"{patch.income} button(s) printed on it pay at each of the {ahead} income marks still "
                           f"ahead: {patch.income * ahead} buttons to come")
            else:
                out.append("no buttons printed on it: it earns nothing at the income marks")
        elif isinstance(action, Advance):
            out.append(f"moves {after_pos - before_pos} spaces to space {after_pos}, one button per space: "
                       f"{after_pos - before_pos} buttons now, no patch bought")
        elif isinstance(action, PlaceLeather):
            out.append(f"the leather patch fills row {action.row}, column {action.col}: one empty cell fewer "
                       f"({penalty} points)")
        collected = after.buttons[seat] - game.buttons[seat] + paid - (after_pos - before_pos if isinstance(action, Advance) else 0)
        crossed = [m for m in marks if before_pos < m <= after_pos]
        if crossed and collected > 0:
            out.append(f"passes the income mark on space {crossed[-1]}: {collected} buttons of income")
        if not isinstance(action, PlaceLeather) and after_pos != before_pos:
            picked = [s for s in game.leather_left if before_pos < s <= after_pos]
            if picked:
                out.append(f"picks up the leather patch on space {picked[0]} (placed next)")
        bonus = rules.bonus
        if bonus is not None:
            size = bonus.square_size
            if after.bonus_owner == seat and game.bonus_owner is None:
                out.append(f"completes a {size}x{size} square first: the bonus tile, +{bonus.points} points")
            elif game.bonus_owner is None:
                now = largest_square(covered_cells(game, seat), edition.board_width, edition.board_height)
                then = largest_square(covered_cells(after, seat), edition.board_width, edition.board_height)
                theirs = largest_square(covered_cells(game, other), edition.board_width, edition.board_height)
                if then > now:
                    out.append(f"grows {you}'s largest filled square from {now}x{now} to {then}x{then} "
                               f"({them}: {theirs}x{theirs}; the {size}x{size} bonus is open)")
        if after.is_over:
            out.append("ends the game for this seat")
            return out
        if after.current_player == seat:
            if after.pending_leather:
                out.append(f"{you} places the leather patch next")
            else:
                out.append(f"{you} stays behind {them} (space {after_pos} against {after.positions[other]}), so "
                           f"{you} moves again")
            return out
        if game.automa_level and other == 1:
            out.append(f"{them} moves next, from space {after.positions[other]}; its card decides what it takes")
        window = []
        for pid in after.window:
            patch = edition.patch(pid)
            window.append(f"{pid} ({patch.cost} buttons{'' if patch.cost <= after.buttons[other] else ', too dear'})")
        if window and not (game.automa_level and other == 1):
            out.append(f"leaves {them} ({after.buttons[other]} buttons) the window " + ", ".join(window))
        elif window:
            out.append(f"leaves the window " + ", ".join(window))
        return out
