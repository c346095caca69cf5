"""A bench6 run: the adapter ingests the pool once, then every question is asked in each language.

Any system behind the benchmark's adapter protocol can be run (``graphmem.bench.bench6.Adapter``
is graphmem's); loading, ingest and queries are timed apart, so the 5 s CPU budget for
ingest and queries is measured without the model and dictionary loading.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graphmem.bench.bench6.files import LANGS, Bench
from graphmem.bench.bench6.scoring import Summary, by_qtype, rank_of, score
from graphmem.errors import GraphmemError


@dataclass
class LangRun:
    lang: str
    results: list[list[str]]
    ranks: list[int]
    summary: Summary
    qtypes: dict[str, Summary]
    cpu: float
    wall: float
    n_empty: int
    n_unknown: int


@dataclass
class Run:
    name: str
    k: int
    langs: dict[str, LangRun]
    ingest_cpu: float
    ingest_wall: float
    load_cpu: float
    load_detail: dict[str, float] = field(default_factory=dict)


def _cpu_wall() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def run(adapter: Any, bench: Bench, k: int = 5, langs: Sequence[str] = LANGS) -> Run:
    """Ingest the pool once, then ask every question in each language (zh before en).

    If the adapter has ``load()``, it is called first and timed apart (model and
    dictionary loading); ``load_detail()`` may itemise it.
    """
    for lang in langs:
        if lang not in LANGS:
            raise GraphmemError(f"unknown language {lang!r}: choose from {', '.join(LANGS)}")
    if k < 1:
        raise GraphmemError(f"k must be at least 1, not {k}")
    name = str(getattr(adapter, "name", "") or "")
    if not name:
        raise GraphmemError("the adapter has no name")
    c0, _ = _cpu_wall()
    if callable(getattr(adapter, "load", None)):
        adapter.load()
    load_cpu = time.process_time() - c0
    detail = adapter.load_detail() if callable(getattr(adapter, "load_detail", None)) else {}
    pool_ids = {r["id"] for r in bench.pool}
    c0, w0 = _cpu_wall()
    adapter.ingest([dict(r) for r in bench.pool])
    ingest_cpu, ingest_wall = time.process_time() - c0, time.perf_counter() - w0
    out: dict[str, LangRun] = {}
    for lang in langs:
        results: list[list[str]] = []
        c0, w0 = _cpu_wall()
        for q in bench.questions:
            got = adapter.search(q.text[lang], k)
            results.append([str(x) for x in got] if got is not None else [])
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        ranks = [rank_of(r, q.evidence, k) for r, q in zip(results, bench.questions, strict=True)]
        out[lang] = LangRun(
            lang, results, ranks, score(ranks, k), by_qtype(bench.questions, ranks, k), cpu, wall,
            n_empty=sum(1 for r in results if not r),
            n_unknown=sum(1 for r in results for x in r[:k] if x not in pool_ids),
        )
    return Run(name, k, out, ingest_cpu, ingest_wall, load_cpu, detail)
