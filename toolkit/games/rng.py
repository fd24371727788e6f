"""The one source of chance: a small seeded generator that runs identically compiled or not.

Marsaglia's xorshift128 on four 32-bit words held in int64: no multiplication, nothing can
overflow, so the same seed gives the same numbers under numba and with NUMBA_DISABLE_JIT=1.
Each game owns its generator state (an int64[4] array); nothing reads a global generator.
"""
from __future__ import annotations

import hashlib

import numpy as np
from toolkit.jit import njit

MASK32 = 0xFFFFFFFF
RngState = np.ndarray  # int64[4]


def seed_state(seed: int, *salt: int) -> np.ndarray:
    """A fresh generator state from a seed (and optional salt words, e.g. a game index)."""
    text = ",".join(str(int(x)) for x in (seed, *salt)).encode()
    digest = hashlib.sha256(b"patchwork-toolkit/rng/" + text).digest()
    words = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]
    if not any(words):
        words[0] = 1
    return np.array(words, dtype=np.int64)


def derive_seed(seed: int, *salt: int) -> int:
    """A 63-bit seed derived from `seed` and salt words; used to seed game i of a run."""
    text = ",".join(str(int(x)) for x in (seed, *salt)).encode()
    return int.from_bytes(hashlib.sha256(b"patchwork-toolkit/seed/" + text).digest()[:8], "little") >> 1


@njit(cache=True)
def next_u32(state):
    """Next 32-bit output; advances `state` in place."""
    t = state[0] ^ ((state[0] << 11) & MASK32)
    state[0] = state[1]
    state[1] = state[2]
    state[2] = state[3]
    w = state[3]
    w = (w ^ (w >> 19)) ^ (t ^ (t >> 8))
    state[3] = w & MASK32
    return state[3]


@njit(cache=True)
def randbelow(state, n):
    """Uniform integer in [0, n) for 1 <= n < 2**31."""
    return (next_u32(state) * n) >> 32


@njit(cache=True)
def shuffle(state, values):
    """Fisher-Yates shuffle of a 1-D array in place."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = randbelow(state, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
