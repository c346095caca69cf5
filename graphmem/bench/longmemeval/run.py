"""One LongMemEval run: per question a fresh memory over its haystack, searched and asked, and the
BM25 baseline over the same turns and sessions, all scored as :mod:`graphmem.bench.longmemeval.metrics`
defines.

Each view (all turns; user turns only) gets its own memory and its own BM25 index, since the
official view indexes user turns alone (an assistant turn is not there to be found, nor to lend
its words to the turn after it). The answer is read from the all-turns memory: ``ask``'s reader
over the turns its search found, so the search is done once per view. CPU time is measured per
phase (``time.process_time``), so the index build can be set against BM25's in the same run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from graphmem.bench.model.reader import evidence_prompt
from graphmem.bench.longmemeval.baseline import BM25
from graphmem.bench.longmemeval.load import Question
from graphmem.bench.longmemeval.metrics import VIEWS, scores, sessions_of, token_f1, update_rates
from graphmem.memory.api import FLOOR, MEANING_FLOOR, Memory
from graphmem.index.options import MemoryOptions
from graphmem.bench.research.store import research_memory
from graphmem.bench.research.strategies import Strategies

SYSTEMS = ("memory", "bm25", "bm25-sessions")
"""memory: graphmem's turns (sessions by their best turn); bm25: bm25s over turns (sessions the
same way); bm25-sessions: bm25s over whole sessions (session level only)."""

ROLES = {"all": None, "official": ("user",)}
"""The roles each view indexes (None: every turn)."""


@dataclass
class Result:
    """What one question gave: the scores per (view, level, system), the answer, the CPU spent."""

    id: str
    type: str
    abstention: bool
    question: str = ""
    answer: str = ""
    retrieval: dict[str, dict[str, float]] = field(default_factory=dict)
    """``view/level/system`` -> ``metric@k`` -> score; absent when that view has no evidence."""
    reply: str = ""
    confidence: float = 0.0
    measure: str = "coverage"
    """What ``confidence`` is (:class:`graphmem.memory.api.Answer`'s ``measure``)."""
    quiet: bool = False
    f1: float = 0.0
    updates: dict[str, dict[str, float]] = field(default_factory=dict)
    """``system`` -> the knowledge-update rates (:func:`graphmem.bench.longmemeval.metrics.update_rates`)
    of its all-turns ranking; empty unless the evidence spans an older and a newer session."""
    top: dict[str, list[str]] = field(default_factory=dict)
    """``view/system`` -> the first ten turn ids (sessions for bm25-sessions)."""
    cpu: dict[str, float] = field(default_factory=dict)
    """Seconds of CPU: ``memory_index``, ``memory_search`` (search and read), ``bm25_index``, ``bm25_search``."""
    prompt: str = ""
    """With ``Settings.prompts``: the model reader's prompt over the turns the extractive reader read
    ("" where the memory's confidence is below the floor: the model is not asked)."""
    model_reply: str | None = None
    model_f1: float = 0.0
    verdict: str = ""
    """The judge's grade of ``model_reply``: correct, wrong, declined, unreadable or failed ("" not judged)."""


@dataclass(frozen=True)
class Settings:
    """The memory's settings for a run: what ``Memory(...)`` is given, nothing patched."""

    options: MemoryOptions = MemoryOptions()
    strategies: Strategies | None = None
    """A research memory's strategies (:mod:`graphmem.bench.research`), to measure a step the product
    does otherwise; None: the product's memory."""
    floor: float = FLOOR
    confidence: str = "coverage"
    """What ``ask`` abstains by: ``coverage`` or ``meaning`` (:mod:`graphmem.memory.meaning`)."""
    meaning_floor: float = MEANING_FLOOR
    views: tuple[str, ...] = VIEWS
    baseline: bool = True
    """Also run BM25 (False: the memory alone, for comparing memories on the same questions)."""
    prompts: bool = False
    """Also keep each question's model prompt (``graphmem longmemeval --model``)."""
    dated: bool = True
    """Search as of the question's ``question_date`` (``asked_on``), so "10 days ago" names a day
    (False: as of no date, when relative dates name none)."""


def evidence_turns(q: Question, view: str) -> set[str]:
    """The turns marked ``has_answer`` that the view indexes."""
    roles = ROLES[view]
    return {t.id for s in q.sessions for t in s.turns if t.has_answer and (roles is None or t.role in roles)}


class _Clock:
    """CPU seconds per phase, added up."""

    def __init__(self, cpu: dict[str, float]):
        self.cpu = cpu

    def time(self, phase: str, fn: Callable[[], object]) -> object:
        start = time.process_time()
        out = fn()
        self.cpu[phase] = self.cpu.get(phase, 0.0) + time.process_time() - start
        return out


def _memory(settings: Settings) -> Memory:
    """A fresh memory of these settings: the product's, or the research memory with its strategies."""
    judged = dict(floor=settings.floor, options=settings.options, confidence=settings.confidence,
                  meaning_floor=settings.meaning_floor)
    if settings.strategies is None:
        return Memory(**judged)
    return research_memory(settings.strategies, **judged)


def run_question(q: Question, settings: Settings = Settings()) -> Result:
    """One question: each view's memory and BM25 built, searched and scored; the answer read."""
    result = Result(q.id, q.type, q.abstention, q.question, q.answer)
    clock = _Clock(result.cpu)
    session_of = {t.id: s.id for s in q.sessions for t in s.turns}
    key_to_id = {s.key: s.id for s in q.sessions}
    for view in settings.views:
        records = q.records(ROLES[view])
        mem = _memory(settings)
        clock.time("memory_index", lambda: mem.ingest(records))
        asked_on = q.date if settings.dated else None
        found = clock.time("memory_search", lambda: mem.records_for(q.question, k=len(records), asked_on=asked_on))
        if view == "all":
            answer = clock.time("memory_search", lambda: mem.answer_from(q.question, found[:max(5, mem.confidence_turns)], cite=5))
            result.reply, result.confidence, result.quiet = answer.reply, float(answer.confidence), answer.quiet
            result.measure = answer.measure
            result.f1 = 0.0 if q.abstention else token_f1(answer.reply, q.answer)
            if settings.prompts and found and answer.confidence >= mem.floor_of(answer):
                result.prompt = evidence_prompt(q.question, found[:5])
        rankings = {"memory": [r.id for r in found]}
        conversations = clock.time("memory_search", lambda: mem.search_conversations(
            q.question, k=len(q.sessions), asked_on=asked_on))
        by_session = {"memory": list(dict.fromkeys(key_to_id[c] for c in conversations))}
        if settings.baseline:
            rankings.update(_baseline(q, records, clock))
        result.top.update({f"{view}/{name}": ranking[:10] for name, ranking in rankings.items()})
        if not q.abstention:
            _score(result, view, rankings, by_session, evidence_turns(q, view), q.evidence_sessions, session_of)
        if view == "all" and not q.abstention:
            dated = {s.id: s.date for s in q.sessions}
            for name in ("memory", "bm25"):
                rates = update_rates(rankings.get(name, ()), evidence_turns(q, view), session_of, dated)
                if rates is not None:
                    result.updates[name] = rates
    return result


def _baseline(q: Question, records: Sequence[dict], clock: _Clock) -> dict[str, list[str]]:
    """BM25's rankings: over the view's turns, and over its sessions."""
    turns = clock.time("bm25_index", lambda: BM25([r["id"] for r in records], [r["text"] for r in records]))
    sessions = _session_index(q, records, clock)
    return {"bm25": clock.time("bm25_search", lambda: turns.rank(q.question)),
            "bm25-sessions": clock.time("bm25_search", lambda: sessions.rank(q.question))}


def _session_index(q: Question, records: Sequence[dict], clock: _Clock) -> BM25:
    """BM25 over whole sessions (the view's turns of each, joined), keyed by the release's id."""
    texts: dict[str, list[str]] = {}
    key_to_id = {s.key: s.id for s in q.sessions}
    for r in records:
        texts.setdefault(key_to_id[r["conversation"]], []).append(r["text"])
    return clock.time("bm25_index", lambda: BM25(list(texts), ["\n".join(t) for t in texts.values()]))


def _score(result: Result, view: str, rankings: dict[str, list[str]], by_session: dict[str, list[str]],
           turns: set[str], sessions: Iterable[str], session_of: dict[str, str]) -> None:
    """Turn and session scores of each system under one view (turn level only with evidence turns):
    a system's session ranking is its own (``by_session``: the memory's ``search_conversations``)
    or, for BM25 over turns, its turn ranking with each session at its best turn."""
    wanted = frozenset(sessions)
    if view == "official" and not turns:
        return  # the official view has nothing to find here: left out, as its own scores leave it out
    for name in ("memory", "bm25"):
        if name not in rankings:
            continue
        if turns:
            result.retrieval[f"{view}/turn/{name}"] = scores(rankings[name], turns)
        ranked = by_session[name] if name in by_session else sessions_of(rankings[name], session_of)
        result.retrieval[f"{view}/session/{name}"] = scores(ranked, wanted)
    if "bm25-sessions" in rankings:
        result.retrieval[f"{view}/session/bm25-sessions"] = scores(rankings["bm25-sessions"], wanted)


def run(questions: Sequence[Question], settings: Settings = Settings(),
        progress: Callable[[Result], None] | None = None) -> list[Result]:
    """Every question in turn, each in its own memory."""
    out = []
    for q in questions:
        out.append(run_question(q, settings))
        if progress is not None:
            progress(out[-1])
    return out
