"""The order of trials: randomized, mirrored blocks.

A block runs every slot of the plan once (a slot is one arm, or arms measured side by side in
one window). Blocks come in mirrored couples: a random order of the slots, then the same order
reversed (for two arms one at a time, AB BA or BA AB: an ABBA block). Mirroring cancels a
linear drift of the machine within the couple for every arm; drawing each couple's order at
random (seeded, and the seed stored with the result) keeps a periodic disturbance (a cron job,
a neighbour's batch, a checkpoint every five minutes) from lining up with one arm
(Abedi and Brecht, "Conducting repeatable experiments in highly variable cloud computing
environments", ICPE 2017).

A crossover plan (plan.py) adds *periods*: runs of blocks during which each arm stays on its
node. Each period has an orientation (+1: the first change level's arms on ``app-1``, -1: on
``app-2``), and periods come in mirrored couples too (+1 then -1, or -1 then +1, at random),
so each arm spends half the run on each node and a node that is faster than the other for the
whole run adds the same to both arms. A runtime switch makes every block its own period.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

__all__ = ["Block", "blocks", "mirror", "new_seed", "orientations"]


@dataclass(frozen=True)
class Block:
    """One block: its number, its slots (arm ids measured together) in running order, and in
    a crossover its period and that period's orientation (0 outside a crossover)."""

    index: int
    slots: tuple[tuple[str, ...], ...]
    period: int = 0
    orientation: int = 0

    @property
    def arms(self) -> tuple[str, ...]:
        return tuple(arm for slot in self.slots for arm in slot)

    def as_dict(self) -> dict:
        out = {"index": self.index, "slots": [list(s) for s in self.slots]}
        if self.orientation:
            out.update(period=self.period, orientation=self.orientation)
        return out


def new_seed() -> int:
    """A fresh seed for a run (stored in the result, so the order can be reproduced)."""
    return random.SystemRandom().randrange(1, 2**31)


def blocks(slots, count: int, seed: int, *, first_index: int = 0,
           period_blocks: int | None = None) -> list[Block]:
    """``count`` blocks over ``slots`` (arm ids, or tuples of arm ids measured together):
    random orders, each followed by its mirror. With ``period_blocks`` (a crossover), blocks
    are grouped into periods of that many blocks, with mirrored random orientations.

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
    orders: list[tuple] = []
    while len(orders) < count:
        order = list(slots)
        rng.shuffle(order)
        orders.append(tuple(order))
        if len(orders) < count:
            orders.append(tuple(reversed(order)))
    if period_blocks is None:
        return [Block(first_index + i, order) for i, order in enumerate(orders)]
    if period_blocks < 1:
        raise ValueError(f"a period needs at least one block, got {period_blocks}")
    turns = orientations(-(-count // period_blocks), rng)
    return [Block(first_index + i, order, period=i // period_blocks,
                  orientation=turns[i // period_blocks]) for i, order in enumerate(orders)]


def mirror(blocks: list[Block]) -> list[Block]:
    """The same design with every orientation reversed (the nodes trade roles): as likely a
    draw as the original, since each couple's first orientation is a coin flip."""
    return [replace(b, orientation=-b.orientation) for b in blocks]


def orientations(periods: int, rng: random.Random) -> list[int]:
    """+1/-1 for each period, in mirrored couples whose first orientation is random."""
    out: list[int] = []
    while len(out) < periods:
        first = rng.choice((1, -1))
        out += [first, -first]
    return out[:periods]
