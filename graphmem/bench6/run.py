"""bench6: the bilingual (zh/en) retrieval benchmark, scored exactly as its METRICS.md says.

100 LoCoMo questions, each asked twice (``question_zh``, a Chinese keyword string that
keeps English names and dates; ``question_en``, the original English question), over a
pool of 137 English turns that are all gold evidence. A system ingests the pool once
and returns pool ids best first for every query.

Scoring (METRICS.md, in our words): the result is cut to its first ``k`` ids; ``rank``
is the 1-based position of the first id in that cut list that is one of the question's
evidence ids (any one counts), or 0 when none is (an empty result, unknown ids, or an
empty evidence list). hit@1 = share of rank 1; hit@k = share of 1 <= rank <= k; MRR =
mean of 1/rank with misses as 0 (so MRR@k). Every question is in the denominator.
Duplicate ids are not removed. By qtype: the same, within each qtype.

The data are not part of graphmem (CC BY-NC 4.0, derived from LoCoMo): point
``--data`` or ``GRAPHMEM_BENCH6`` at a directory holding ``pool.jsonl`` and
``questions.jsonl`` (and optionally ``published_results.json``).

:class:`Adapter` is graphmem behind the benchmark's adapter protocol: constructible
with no arguments, a ``name``, ``ingest(records)`` with the pool rows and
``search(query, k)`` returning pool ids best first.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.data import jsonl
from graphmem.errors import DataError, GraphmemError

ENV = "GRAPHMEM_BENCH6"
LANGS = ("zh", "en")
QTYPES = ("single_hop", "adversarial", "temporal_reasoning", "multi_hop", "open_domain")
WHERE = (
    "bench6 is not shipped with graphmem (CC BY-NC 4.0, derived from LoCoMo). It is the folder "
    "data/benchmarks/bench6-100-zh-en/ of the GitHub repository FuRongJun-1999/dsh-memory "
    "(pool.jsonl, questions.jsonl, results_v1.0.json); pass its directory with --data DIR or "
    f"set {ENV}=DIR"
)
POOL_KEYS = ("id", "speaker", "text")
QUESTION_KEYS = ("qid", "qtype", "question_zh", "question_en", "evidence_turns")


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Question:
    qid: str
    qtype: str
    text: Mapping[str, str]
    evidence: tuple[str, ...]


@dataclass
class Bench:
    """The pool rows (as read), the questions and, when present, the published results."""

    path: Path
    pool: list[dict[str, Any]]
    questions: list[Question]
    published: dict[str, Any] | None = None
    dangling: list[str] = field(default_factory=list)


def resolve_dir(path: str | os.PathLike | None = None) -> Path:
    """The bench6 directory: ``path``, else ``$GRAPHMEM_BENCH6``; an error says where to get it."""
    chosen = path if path not in (None, "") else os.environ.get(ENV) or None
    if chosen is None:
        raise GraphmemError(f"no bench6 data given. {WHERE}")
    p = Path(chosen).expanduser()
    if not p.is_dir():
        raise DataError(f"{p}: not a directory. {WHERE}")
    for name in ("pool.jsonl", "questions.jsonl"):
        if not (p / name).is_file():
            raise DataError(f"{p / name}: missing. {WHERE}")
    return p


def _need_str(path: Path, n: int, row: Mapping[str, Any], key: str, allow_empty: bool = False) -> str:
    if key not in row:
        raise DataError(f"{path}: line {n}: missing {key!r}")
    v = row[key]
    if not isinstance(v, str) or (not allow_empty and not v.strip()):
        raise DataError(f"{path}: line {n}: {key!r} must be a non-empty string")
    return v


def load(path: str | os.PathLike | None = None) -> Bench:
    """Read and check bench6; a bad file or row raises ``DataError`` naming file and line."""
    base = resolve_dir(path)
    pool_path, q_path = base / "pool.jsonl", base / "questions.jsonl"
    pool: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for n, row in jsonl.rows(pool_path):
        for key in POOL_KEYS:
            _need_str(pool_path, n, row, key, allow_empty=key == "text")
        if "date" in row and row["date"] is not None and not isinstance(row["date"], str):
            raise DataError(f"{pool_path}: line {n}: 'date' must be a string")
        if row["id"] in seen:
            raise DataError(f"{pool_path}: line {n}: duplicate id {row['id']!r} (first on line {seen[row['id']]})")
        seen[row["id"]] = n
        pool.append(row)
    questions: list[Question] = []
    qids: set[str] = set()
    dangling: list[str] = []
    for n, row in jsonl.rows(q_path):
        for key in QUESTION_KEYS[:4]:
            _need_str(q_path, n, row, key)
        ev = row.get("evidence_turns")
        if not isinstance(ev, list) or not all(isinstance(e, str) for e in ev):
            raise DataError(f"{q_path}: line {n}: 'evidence_turns' must be a list of pool ids")
        if row["qid"] in qids:
            raise DataError(f"{q_path}: line {n}: duplicate qid {row['qid']!r}")
        qids.add(row["qid"])
        dangling.extend(e for e in ev if e not in seen)
        questions.append(Question(row["qid"], row["qtype"], {"zh": row["question_zh"], "en": row["question_en"]}, tuple(ev)))
    published = None
    pub_path = base / "published_results.json"
    if pub_path.is_file():
        try:
            published = json.loads(pub_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise DataError(f"{pub_path}: not JSON ({e})") from None
        if not isinstance(published, dict) or not isinstance(published.get("arms"), dict):
            raise DataError(f"{pub_path}: expected an object with 'arms'")
    return Bench(base, pool, questions, published, sorted(set(dangling)))


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Summary:
    n: int
    hit1: float
    hitk: float
    mrr: float


def rank_of(result: Sequence[str] | None, evidence: Iterable[str], k: int) -> int:
    """1-based position of the first evidence id among the first ``k`` results, 0 if none."""
    wanted = set(evidence)
    for pos, rid in enumerate(list(result or [])[: max(k, 0)], 1):
        if rid in wanted:
            return pos
    return 0


def score(ranks: Sequence[int], k: int = 5) -> Summary:
    """hit@1, hit@k and MRR over per-question ranks (0 = miss); every rank is in the denominator."""
    n = len(ranks)
    if n == 0:
        return Summary(0, 0.0, 0.0, 0.0)
    return Summary(
        n,
        sum(1 for r in ranks if r == 1) / n,
        sum(1 for r in ranks if 1 <= r <= k) / n,
        sum(1.0 / r for r in ranks if r > 0) / n,
    )


def by_qtype(questions: Sequence[Question], ranks: Sequence[int], k: int = 5) -> dict[str, Summary]:
    """The same summary within each qtype (known qtypes in the bench's order, then others)."""
    groups: dict[str, list[int]] = {}
    for q, r in zip(questions, ranks, strict=True):
        groups.setdefault(q.qtype, []).append(r)
    order = [t for t in QTYPES if t in groups] + sorted(t for t in groups if t not in QTYPES)
    return {t: score(groups[t], k) for t in order}


# --------------------------------------------------------------------------- running


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


# --------------------------------------------------------------------------- report


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    summary: Summary
    ours: bool = False


def published_rows(published: Mapping[str, Any] | None, lang: str) -> list[Row]:
    """The published arms' summaries for one language (arms without that language skipped)."""
    rows: list[Row] = []
    if not published:
        return rows
    for key, arm in (published.get("arms") or {}).items():
        if not isinstance(arm, Mapping):
            continue
        s = arm.get(lang)
        if not isinstance(s, Mapping):
            continue
        hitk = s.get(f"hit@{published.get('k', 5)}", s.get("hit@5"))
        try:
            summary = Summary(0, float(s["hit@1"]), float(hitk), float(s["mrr"]))
        except (KeyError, TypeError, ValueError):
            continue
        rows.append(Row(key, str(arm.get("label") or key), summary))
    return rows


def table(rows: Sequence[Row], k: int) -> list[str]:
    """Rows sorted by hit@1, then hit@k, then MRR (descending), then name."""
    ordered = sorted(rows, key=lambda r: (-r.summary.hit1, -r.summary.hitk, -r.summary.mrr, r.key))
    width = max([len(r.key) for r in ordered] + [6])
    lines = [f"  {'system':<{width}}  hit@1  hit@{k:<2} MRR"]
    for r in ordered:
        mark = "  <- this run" if r.ours else ""
        s = r.summary
        lines.append(f"  {r.key:<{width}}  {s.hit1:.3f}  {s.hitk:.3f}  {s.mrr:.3f}{mark}")
    return lines


def render(result: Run, bench: Bench) -> str:
    k = result.k
    out = [f"bench6 ({bench.path}): {len(bench.questions)} questions, {len(bench.pool)} pool turns, k={k}, system {result.name}"]
    if bench.dangling:
        out.append(f"note: {len(bench.dangling)} evidence ids are not in the pool (they can never be hit)")
    pub_k = bench.published.get("k") if bench.published else None
    for lang, lr in result.langs.items():
        s = lr.summary
        out.append("")
        out.append(f"[{lang}] hit@1 {s.hit1:.3f}  hit@{k} {s.hitk:.3f}  MRR {s.mrr:.3f}  "
                   f"(empty results {lr.n_empty}, unknown ids {lr.n_unknown})")
        out.append(f"  by qtype{'':14} n  hit@1  hit@{k:<2} MRR")
        for t, qs in lr.qtypes.items():
            out.append(f"  {t:<20} {qs.n:>3}  {qs.hit1:.3f}  {qs.hitk:.3f}  {qs.mrr:.3f}")
        rows = published_rows(bench.published, lang)
        if rows:
            note = "" if pub_k in (None, k) else f" (published at k={pub_k}: their hit@k column is hit@{pub_k})"
            out.append(f"  beside the published results{note}:")
            out.extend(table(rows + [Row(result.name, result.name, s, ours=True)], k))
    out.append("")
    parts = [f"load {result.load_cpu:.2f} s CPU"]
    if result.load_detail:
        parts[0] += " (" + ", ".join(f"{n} {v:.2f}" for n, v in result.load_detail.items()) + ")"
    parts.append(f"ingest {result.ingest_cpu:.2f} s CPU ({result.ingest_wall:.2f} s wall)")
    for lang, lr in result.langs.items():
        parts.append(f"{lang} queries {lr.cpu:.2f} s CPU ({lr.wall:.2f} s wall)")
    total = result.ingest_cpu + sum(lr.cpu for lr in result.langs.values())
    out.append("timing: " + "; ".join(parts) + f"; ingest + queries {total:.2f} s CPU")
    return "\n".join(out)


def main_report(data_dir: str | os.PathLike | None = None, lang: str = "both", k: int = 5,
                adapter: Any | None = None) -> str:
    """What ``graphmem bench6`` prints: our scores per language and qtype, the published
    rows beside ours (sorted by hit@1), and the timing."""
    langs = LANGS if lang == "both" else (lang,)
    bench = load(data_dir)
    return render(run(adapter if adapter is not None else Adapter(), bench, k, langs), bench)


# --------------------------------------------------------------------------- adapter

_CONVERSATION = re.compile(r"^(.+?)_session_\d+_turn_(\d+)$")


def conversation_of(pool_id: str) -> str:
    """bench6 pool ids are ``scene_K_session_S_turn_T``; the conversation is ``scene_K``."""
    m = _CONVERSATION.match(pool_id)
    return m.group(1) if m else "bench6"


_QUESTION = re.compile(r"^scene_(\d+)_q_(\d+)$")


def question_of(qid: str) -> tuple[int, int] | None:
    """bench6 qids are ``scene_K_q_N``, LoCoMo's question N of conversation K: (K, N), or
    None for another shape."""
    m = _QUESTION.match(qid)
    return (int(m.group(1)), int(m.group(2))) if m else None


def turn_of(pool_id: str) -> int | None:
    """The ``T`` of ``scene_K_session_S_turn_T``: the turn's number in its session."""
    m = _CONVERSATION.match(pool_id)
    return int(m.group(2)) if m else None


def _strip_speaker(text: str, speaker: str) -> str:
    """Pool text is ``"Speaker: utterance"``; the memory adds the speaker itself."""
    prefix = f"{speaker}:"
    return text[len(prefix):].lstrip() if text.startswith(prefix) else text


class Adapter:
    """graphmem under bench6's adapter protocol, built on :class:`graphmem.memory.api.Memory`.

    ``ingest`` hands the pool rows to ``Memory.ingest`` as id, speaker, text (without
    the ``"Speaker: "`` prefix the pool text carries: the memory indexes the speaker
    itself), date, conversation (``scene_K`` from the id) and turn number (``T``), so the
    memory knows that two pool turns of a session with a gap between them are not one
    the reply to the other (31 of the 38 that follow another pool turn of their session).
    ``search`` returns ``Memory.search``'s ids.

    ``scope="conversation"`` (default) is the memory's own person scope: a query that
    names a speaker the memory knows ranks the turns of the conversations that speaker
    takes part in first, then the rest. ``scope=None`` turns it off (to measure it).
    ``dense`` is passed on to ``Memory`` (default ``False``: lexical only; the embedding
    is an optional extra, and here costs about 20 times the CPU for a point of hit@1 in
    each language), and so is ``ranking`` when given (``"bm25"`` or
    ``"tfidf"``; ``None`` keeps the memory's default).
    """

    name = "graphmem"

    def __init__(self, dense: bool = False, scope: str | None = "conversation",
                 memory_factory: Callable[[], Any] | None = None, ranking: str | None = None):
        if scope not in (None, "conversation"):
            raise GraphmemError(f"unknown scope {scope!r}: choose conversation or None")
        self.dense = dense
        self.scope = scope
        self.ranking = ranking
        self._factory = memory_factory
        self.memory: Any = None
        self._loaded: dict[str, float] = {}
        if dense:
            self.name = "graphmem+dense"
        if ranking is not None:
            self.name += f" [{ranking}]"
        if scope is None:
            self.name += " (unscoped)"

    def _new_memory(self) -> Any:
        if self._factory is not None:
            return self._factory()
        from graphmem.memory.api import Memory

        extra = {"ranking": self.ranking} if self.ranking is not None else {}
        return Memory(dense=self.dense, scope=self.scope is not None, **extra)

    def load(self) -> None:
        """Load what queries need before anything is timed: the CC-CEDICT dictionary (zh
        extra) and, with ``dense``, the embedding model."""
        t = time.process_time()
        import graphmem.memory.api  # noqa: F401  (imports are loading, not ingest)
        from graphmem.text import zh as lingo

        self._loaded["imports"] = time.process_time() - t
        if lingo.available():
            t = time.process_time()
            lingo.dictionary()
            self._loaded["dictionary"] = time.process_time() - t
        if self.dense:
            from graphmem.search import dense

            if dense.available():
                self._loaded[f"{dense.shared().engine} model"] = dense.shared().load_seconds

    def load_detail(self) -> dict[str, float]:
        return dict(self._loaded)

    def ingest(self, records: Sequence[Mapping[str, Any]]) -> None:
        rows = []
        for r in records:
            rid, speaker = str(r["id"]), str(r.get("speaker") or "unknown")
            conv = str(r.get("conversation") or conversation_of(rid))
            rows.append({"id": rid, "speaker": speaker, "text": _strip_speaker(str(r.get("text", "")), speaker),
                         "date": r.get("date") or None, "conversation": conv, "turn": turn_of(rid)})
        self.memory = self._new_memory()
        self.memory.ingest(rows)
        self.memory.build()  # index now, so that ingest time is ingest time

    def search(self, query: str, k: int) -> list[str]:
        if self.memory is None:
            return []
        return list(self.memory.search(query, k))
