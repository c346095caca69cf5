"""The experiment: build every arm over every conversation, ask every question, score, tabulate.

The run is staged so that each stage can be reused and timed on its own:
``prepare`` (read claims, build graphs, index), ``retrieve`` (each arm cites turns for
each question at some k), ``answer`` (confidence, reader, floor) and ``score`` (the
official metric). A sweep over the floor or the reader's settings reuses retrieval.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from graphmem.bench.locomo import metric
from graphmem.claims import build as claims_build
from graphmem.claims.hops import MemoryNeighbourhood
from graphmem.bench.arms.hops import path_backend
from graphmem.bench.arms.base import Arm, Context, turn_text
from graphmem.bench.arms.registry import ARMS, READ_SUFFIX, base
from graphmem.errors import GraphmemError
from graphmem.data.locomo import ADVERSARIAL, CATEGORIES, Dataset, Question
from graphmem.answer.reader import ABSTAIN, Hit, Reader, ReaderSettings
from graphmem.memory.api import Memory
from graphmem.memory.calibrated import TURNS, Calibrated
from graphmem.answer.sure import Ceiling, sure


@dataclass
class Timer:
    """CPU seconds per stage, in the order the stages first ran, and the CPU (all threads) and wall
    seconds since it was made: made when a command starts rather than read off the process's own
    clock, so a launcher's time (a pyenv shim execs bash and pyenv in the same process) is not
    counted; ``bench/perf.py`` measures whole processes."""

    stages: dict[str, float] = field(default_factory=dict)
    started: tuple[float, float] = field(default_factory=lambda: (time.perf_counter(), _cpu()))

    def add(self, stage: str, start: float) -> None:
        self.stages[stage] = self.stages.get(stage, 0.0) + time.process_time() - start

    def line(self) -> str:
        """The command's closing line: CPU and wall seconds since it started, then CPU per stage."""
        wall, cpu = self.started
        stages = "  ".join(f"{name} {sec:.2f}s" for name, sec in self.stages.items())
        return f"cpu {_cpu() - cpu:.2f}s wall {time.perf_counter() - wall:.2f}s  ({stages})"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Prepared:
    """Every conversation's context and built arms, ready to be asked questions."""

    dataset: Dataset
    arms: list[str]
    contexts: list[Context]
    built: list[dict[str, Arm]]
    timer: Timer


def prepare(dataset: Dataset, arms: Sequence[str], blind: bool = False, timer: Timer | None = None,
            backend: str = "memory", neo4j: Any = None) -> Prepared:
    """Read claims and build graphs where an arm needs them, then build every arm.

    With ``blind`` every graph is emptied after it is built and before any arm is
    made, and nothing else changes: an arm whose answers come out of the graph's
    structure falls silent, every other arm is byte-identical. ``backend="neo4j"``
    makes the path arms take their hops from Neo4j (loaded by ``graphmem load``),
    through the ``neo4j`` client if one is given, else one made from ``NEO4J_*``.
    """
    timer = timer or Timer()
    needs_graph = any(ARMS[base(a)][1] for a in arms)
    contexts, built = [], []
    for conv in dataset.conversations:
        t = time.process_time()
        ctx = Context.of(conv)
        ctx.extra["neighbourhood"] = partial(path_backend, client=neo4j) if backend == "neo4j" else MemoryNeighbourhood.of
        ctx.extra["blind"] = blind
        timer.add("index", t)
        if needs_graph:
            read_and_build(ctx, blind, timer)
        t = time.process_time()
        arms_here = {}
        for name in dict.fromkeys(base(a) for a in arms):
            arms_here[name] = ARMS[name][0](ctx)
        timer.add("index", t)
        contexts.append(ctx)
        built.append(arms_here)
    return Prepared(dataset, list(arms), contexts, built, timer)


def read_and_build(ctx: Context, blind: bool = False, timer: Timer | None = None) -> None:
    """Read a conversation's claims and build its graph (then reason; with ``blind``, empty it).

    Claims are read in :mod:`graphmem.claims.build`, the one place the bench, ``graphmem load``
    and the Neo4j mirror check all come through.
    """
    timer = timer or Timer()
    t = time.process_time()
    ctx.reading = claims_build.extract_claims(ctx.conv)
    timer.add("read claims", t)
    t = time.process_time()
    built = claims_build.build_graph(ctx.conv, ctx.reading, blind)
    ctx.graph = built.graph
    ctx.extra["derived"] = built.derived
    ctx.extra["census"] = built.census
    timer.add("build graphs", t)


Retrieval = dict[str, list[list[list[Hit]]]]
"""Base arm -> conversation -> question -> hits."""


def retrieve(prep: Prepared, k: int) -> Retrieval:
    """Every base arm's citations for every question at this k."""
    t = time.process_time()
    out: Retrieval = {}
    for name in dict.fromkeys(base(a) for a in prep.arms):
        out[name] = [arms[name].cite(ctx.conv.questions, k) for ctx, arms in zip(prep.contexts, prep.built)]
    prep.timer.add("answer", t)
    return out


@dataclass(frozen=True)
class ArmAnswer:
    """One arm's answer to one question, before the floor is applied."""

    reply: str
    context: tuple[str, ...]
    confidence: float

    def at(self, floor: float) -> str:
        """The prediction at a floor: below it the arm is quiet."""
        return self.reply if self.confidence >= floor else ABSTAIN


Answers = dict[str, list[list[ArmAnswer]]]
"""Arm -> conversation -> question -> answer."""


CONFIDENCES = ("turn", "relative", "calibrated")
"""How the best turn's coverage of a question becomes a confidence (:func:`graphmem.answer.sure.sure`): as it is
(``turn``, the specification's Sure, the default), or discounted by the best coverage any turn
of the conversation reaches (``relative``); or the memory's calibrated probability (``calibrated``:
:mod:`graphmem.memory.calibrated`), the same for every arm: ``Memory(confidence="calibrated")``'s own, over
one memory of every conversation, as it was fitted (:func:`_calibrated`). It judges whether the memory holds
an answer, which an arm's own turns cannot show when the arm reads the named person's turns alone (the graph
arm: who told it is the signal that finds adversarial questions); the arms then differ in their replies."""


def answer(prep: Prepared, found: Retrieval, settings: ReaderSettings, confidence: str = "turn") -> Answers:
    """Confidence and reply for every arm and question (the floor comes later)."""
    if confidence not in CONFIDENCES:
        raise GraphmemError(f"unknown confidence {confidence!r}: choose {' or '.join(CONFIDENCES)}")
    judged = _calibrated(prep) if confidence == "calibrated" else None  # its own stage of the timing
    t = time.process_time()
    out: Answers = {}
    sure_cache: dict[tuple[int, int, str], float] = {}
    ceilings = _ceilings(prep) if confidence == "relative" else None
    for arm in prep.arms:
        gather = arm.endswith(READ_SUFFIX)
        per_conv = []
        for c, ctx in enumerate(prep.contexts):
            reader = Reader(ctx.vocab, settings, gather=gather)
            rows = []
            for q, hits in zip(ctx.conv.questions, found[base(arm)][c]):
                first = hits[0].dia_id if hits else ""
                key = (c, q.index, first)
                conf = judged[c][q.index] if judged is not None else sure_cache.get(key)
                if conf is None:
                    text = turn_text(ctx.conv.turn_by_id[first]) if hits else None
                    ceiling = ceilings[c][q.index] if ceilings is not None else None
                    conf = sure_cache[key] = sure(ctx.vocab, q.text, text, ceiling)
                reply = reader.read(q.text, hits) if hits else ABSTAIN
                rows.append(ArmAnswer(reply, tuple(h.dia_id for h in hits), conf))
            per_conv.append(rows)
        out[arm] = per_conv
    prep.timer.add("answer", t)
    return out


def _calibrated(prep: Prepared) -> list[dict[int, float]]:
    """Per conversation, per question index: ``Memory(confidence="calibrated")``'s probability, read off
    the ten turns one memory of every conversation finds (no conversation named), as
    ``bench/confidence_rows.py`` read the rows it was fitted on."""
    t = time.process_time()
    mem = Memory(confidence="calibrated")
    mem.ingest([{"id": f"{ctx.conv.id}/{turn.id}", "speaker": turn.speaker, "text": turn.text, "date": turn.date,
                 "conversation": ctx.conv.id} for ctx in prep.contexts for turn in ctx.conv.turns])
    model = Calibrated.load()
    out = []
    for ctx in prep.contexts:
        out.append({q.index: model(mem.signals(q.text, mem.records_for(q.text, TURNS)))
                    for q in ctx.conv.questions})
    prep.timer.add("calibrated", t)
    return out


def _ceilings(prep: Prepared) -> list[dict[int, float]]:
    """Per conversation, per question index: the best coverage any of its turns reaches."""
    out = []
    for ctx in prep.contexts:
        best = Ceiling(ctx.vocab, [turn_text(t) for t in ctx.conv.turns])
        out.append({q.index: best(q.text) for q in ctx.conv.questions})
    return out


@dataclass(frozen=True)
class Cell:
    """One arm's figures over one group of questions."""

    n: int
    f1: float
    recall: float
    quiet: float


ROWS: list[tuple[str, Callable[[Question], bool]]] = [
    *[(name, (lambda c: lambda q: q.category == c)(cat)) for cat, name in CATEGORIES.items()],
    ("answerable", lambda q: q.category != ADVERSARIAL),
    ("overall", lambda q: True),
]


@dataclass
class Scored:
    """Per arm, per question (flattened in dataset order): F1, recall and whether quiet."""

    questions: list[Question]
    f1: dict[str, list[float]]
    recall: dict[str, list[float]]
    quiet: dict[str, list[bool]]

    def table(self, arms: Sequence[str]) -> dict[str, dict[str, Cell]]:
        """Row name -> arm -> cell."""
        out: dict[str, dict[str, Cell]] = {}
        for row, keep in ROWS:
            idx = [i for i, q in enumerate(self.questions) if keep(q)]
            out[row] = {a: _cell(idx, self.f1[a], self.recall[a], self.quiet[a]) for a in arms}
        return out


def _cell(idx: list[int], f1: list[float], recall: list[float], quiet: list[bool]) -> Cell:
    n = len(idx)
    if n == 0:
        return Cell(0, 0.0, 0.0, 0.0)
    return Cell(n, sum(f1[i] for i in idx) / n, sum(recall[i] for i in idx) / n, sum(quiet[i] for i in idx) / n)


def score(prep: Prepared, answers: Answers, floor: float) -> Scored:
    """The official metric over every arm's predictions at a floor."""
    t = time.process_time()
    questions = [q for ctx in prep.contexts for q in ctx.conv.questions]
    f1s, recalls, quiet = {}, {}, {}
    for arm in prep.arms:
        flat = [a for conv in answers[arm] for a in conv]
        preds = [a.at(floor) for a in flat]
        f1s[arm] = [metric.grade(q.category, p, q.answer) for q, p in zip(questions, preds)]
        recalls[arm] = [metric.recall(a.context, q.evidence) for q, a in zip(questions, flat)]
        quiet[arm] = [p == ABSTAIN for p in preds]
    prep.timer.add("score", t)
    return Scored(questions, f1s, recalls, quiet)
