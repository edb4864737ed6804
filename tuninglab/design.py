"""The order of trials: randomized, mirrored blocks.

A block runs every slot of the plan once (a slot is one arm, or arms measured side by side in
one window). Blocks come in mirrored couples: a random order of the slots, then the same order
reversed (for two arms one at a time, AB BA or BA AB: an ABBA block). Mirroring cancels a
linear drift of the machine within the couple for every arm; drawing each couple's order at
random (seeded, and the seed stored with the result) keeps a periodic disturbance (a cron job,
a neighbour's batch, a checkpoint every five minutes) from lining up with one arm
(Abedi and Brecht, "Conducting repeatable experiments in highly variable cloud computing
environments", ICPE 2017).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["Block", "blocks", "new_seed"]


@dataclass(frozen=True)
class Block:
    """One block: its number and its slots (arm ids measured together) in running order."""

    index: int
    slots: tuple[tuple[str, ...], ...]

    @property
    def arms(self) -> tuple[str, ...]:
        return tuple(arm for slot in self.slots for arm in slot)

    def as_dict(self) -> dict:
        return {"index": self.index, "slots": [list(s) for s in self.slots]}


def new_seed() -> int:
    """A fresh seed for a run (stored in the result, so the order can be reproduced)."""
    return random.SystemRandom().randrange(1, 2**31)


def blocks(slots, count: int, seed: int, *, first_index: int = 0) -> list[Block]:
    """``count`` blocks over ``slots`` (arm ids, or tuples of arm ids measured together):
    random orders, each followed by its mirror.

    An odd count ends with an unmirrored random block. The same seed gives the same blocks.
    """
    slots = [tuple(s) if isinstance(s, (tuple, list)) else (s,) for s in slots]
    arms = [a for s in slots for a in s]
    if not arms:
        raise ValueError("a plan needs at least one arm")
    if len(set(arms)) != len(arms):
        raise ValueError(f"arm ids must be unique: {arms}")
    if count < 1:
        raise ValueError(f"at least one block is needed, got {count}")
    rng = random.Random(seed)
    out: list[Block] = []
    while len(out) < count:
        order = list(slots)
        rng.shuffle(order)
        out.append(Block(first_index + len(out), tuple(order)))
        if len(out) < count:
            out.append(Block(first_index + len(out), tuple(reversed(order))))
    return out
