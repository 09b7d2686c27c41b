"""Seeded dice. Every roll comes from a generator sub-seeded by (game seed, turn, phase, ...),
so the same state, orders and seed give the same rolls, and tests can script them."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def secret_seed(bits: int = 62) -> int:
    """A fresh random seed for a new game. It stays in the GM's database: a player who knew
    it could replay every future battle (the engine ships with the viewer)."""
    import secrets

    return secrets.randbits(bits)


def derive_seed(*keys: Any) -> int:
    text = "\x1f".join(str(k) for k in keys).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class Dice:
    """A deterministic generator; `sub(...)` derives an independent one for a phase."""

    def __init__(self, seed: int | str, *path: Any):
        self.seed, self.path = seed, path
        self._rng = random.Random(derive_seed(seed, *path))
        self.log: list[tuple[str, int]] = []  # (what, result) for reports and debugging

    def sub(self, *keys: Any) -> Dice:
        return Dice(self.seed, *self.path, *keys)

    def d(self, sides: int, why: str = "") -> int:
        """1..sides inclusive."""
        # randint(1, sides) is 1 + _randbelow(sides) (random.randrange), without its two
        # calls' checks: a battle's spoils roll once per coin, some 100,000 times a turn
        r = self._rng._randbelow(sides) + 1 if type(sides) is int and sides > 0 \
            else self._rng.randint(1, sides)
        self.log.append((why or f"d{sides}", r))
        return r

    def percent(self, why: str = "") -> int:
        return self.d(100, why or "d100")

    def chance(self, pct: float, why: str = "") -> bool:
        return self.percent(why) <= pct

    def choice(self, items: Sequence[T], why: str = "") -> T:
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self.d(len(items), why or "choice") - 1]

    def shuffle(self, items: list[T], why: str = "") -> list[T]:
        """In place, Fisher-Yates through d() so scripted dice can drive it too."""
        for i in range(len(items) - 1, 0, -1):
            j = self.d(i + 1, why or "shuffle") - 1
            items[i], items[j] = items[j], items[i]
        return items


class DiceScriptExhausted(RuntimeError):
    pass


class ScriptedDice(Dice):
    """Dice that return given results in order (for rule cases); every sub() shares the script."""

    def __init__(self, rolls: Sequence[int], fallback: Dice | None = None):
        super().__init__("scripted")
        self.rolls = list(rolls)
        self.fallback = fallback
        self.used = 0

    def sub(self, *keys: Any) -> Dice:
        return self

    def d(self, sides: int, why: str = "") -> int:
        if self.used >= len(self.rolls):
            if self.fallback is None:
                raise DiceScriptExhausted(f"dice script ran out at roll {self.used + 1} ({why or f'd{sides}'})")
            return self.fallback.d(sides, why)
        r = self.rolls[self.used]
        self.used += 1
        if not 1 <= r <= sides:
            raise ValueError(f"scripted roll {r} does not fit d{sides} ({why})")
        self.log.append((why or f"d{sides}", r))
        return r
