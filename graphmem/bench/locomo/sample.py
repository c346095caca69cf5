"""A stratified, seeded sample of LoCoMo's questions, so a slow model is measured on a stated subset.

Why stratified: LoCoMo's categories differ in size (841 single hop, 96 open domain) and in what
every arm scores on them, so a plain random subset moves the overall row by luck of the draw.
Each category gets its share of ``n`` (largest remainders, ties to the larger category), drawn
with one ``random.Random(seed)``; the seed is printed with the sample so it can be drawn again.

The sampled dataset is an ordinary :class:`~graphmem.data.locomo.Dataset`: questions keep
dataset order and are renumbered within their conversation (the bench addresses a question by
its position), and a conversation with no sampled question is left out, so the stats command's
intervals resample exactly the conversations the sampled questions come from.
"""

from __future__ import annotations

import random
from dataclasses import replace

from graphmem.data.locomo import CATEGORIES, Dataset
from graphmem.errors import GraphmemError

__all__ = ["allocate", "stratified", "describe"]


def allocate(sizes: dict[int, int], n: int) -> dict[int, int]:
    """How many of ``n`` each category gets: its proportional share, rounded by largest remainder."""
    total = sum(sizes.values())
    if not 0 < n <= total:
        raise GraphmemError(f"--sample {n}: choose 1 to {total} (the questions there are)")
    exact = {c: n * size / total for c, size in sizes.items()}
    out = {c: int(v) for c, v in exact.items()}
    left = n - sum(out.values())
    by_remainder = sorted(sizes, key=lambda c: (-(exact[c] - out[c]), -sizes[c], c))
    for c in by_remainder[:left]:
        out[c] += 1
    return out


def stratified(dataset: Dataset, n: int, seed: int) -> Dataset:
    """``n`` questions of ``dataset``, each category in proportion, drawn with ``seed``."""
    where: dict[int, list[tuple[int, int]]] = {}
    for c, conv in enumerate(dataset.conversations):
        for q in conv.questions:
            where.setdefault(q.category, []).append((c, q.index))
    quota = allocate({cat: len(ids) for cat, ids in where.items()}, n)
    rng = random.Random(seed)
    chosen: set[tuple[int, int]] = set()
    for cat in sorted(where):  # a fixed order, so one seed draws one sample
        chosen.update(rng.sample(where[cat], quota[cat]))
    conversations = []
    for c, conv in enumerate(dataset.conversations):
        kept = [q for q in conv.questions if (c, q.index) in chosen]
        if kept:
            questions = tuple(replace(q, index=i) for i, q in enumerate(kept))
            conversations.append(replace(conv, questions=questions))
    return replace(dataset, conversations=tuple(conversations))


def describe(sampled: Dataset, full: Dataset, seed: int) -> str:
    """The line the bench prints: how many of how many, per category, and the seed."""
    counts = {cat: 0 for cat in CATEGORIES}
    for conv in sampled.conversations:
        for q in conv.questions:
            counts[q.category] = counts.get(q.category, 0) + 1
    per = ", ".join(f"{name} {counts[cat]}" for cat, name in CATEGORIES.items())
    return (f"sample: {sampled.questions} of {full.questions} questions, stratified by category (seed {seed}): {per};"
            f" {len(sampled.conversations)} of {len(full.conversations)} conversations")
