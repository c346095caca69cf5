"""bench6's files, read and checked: ``pool.jsonl``, ``questions.jsonl`` and, when present, ``published_results.json``.

100 LoCoMo questions, each asked twice (``question_zh``, a Chinese keyword string that
keeps English names and dates; ``question_en``, the original English question), over a
pool of 137 English turns that are all gold evidence.

The data are not part of graphmem (CC BY-NC 4.0, derived from LoCoMo): point
``--data`` or ``GRAPHMEM_BENCH6`` at a directory holding ``pool.jsonl`` and
``questions.jsonl`` (and optionally ``published_results.json``), or keep it as ``bench6/``
in the shared data folder (:mod:`graphmem.data.shared`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.data import jsonl, shared
from graphmem.data.files import read_text
from graphmem.data.jsontext import parse
from graphmem.errors import DataError, GraphmemError

ENV = "GRAPHMEM_BENCH6"
LANGS = ("zh", "en")
QTYPES = ("single_hop", "adversarial", "temporal_reasoning", "multi_hop", "open_domain")
WHERE = (
    "bench6 is not shipped with graphmem (CC BY-NC 4.0, derived from LoCoMo). It is the folder "
    "data/benchmarks/bench6-100-zh-en/ of the GitHub repository FuRongJun-1999/dsh-memory "
    "(pool.jsonl, questions.jsonl, results_v1.0.json); pass its directory with --data DIR or "
    f"set {ENV}=DIR (or {shared.ENV_SHARED} to the folder holding bench6/)"
)
POOL_KEYS = ("id", "speaker", "text")
QUESTION_KEYS = ("qid", "qtype", "question_zh", "question_en", "evidence_turns")


@dataclass(frozen=True)
class Bench6Question:
    qid: str
    qtype: str
    text: Mapping[str, str]
    evidence: tuple[str, ...]


@dataclass
class Bench:
    """The pool rows (as read), the questions and, when present, the published results."""

    path: Path
    pool: list[dict[str, Any]]
    questions: list[Bench6Question]
    published: dict[str, Any] | None = None
    dangling: list[str] = field(default_factory=list)


def resolve_dir(path: str | os.PathLike | None = None) -> Path:
    """The bench6 directory: ``path``, else ``$GRAPHMEM_BENCH6``, else the shared copy
    (:func:`graphmem.data.shared.find`); an error says where to get it."""
    chosen = path if path not in (None, "") else shared.find("bench6", ENV, "directory", WHERE)
    if chosen is None:
        raise GraphmemError(f"no bench6 data given or shared. {WHERE}")
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


def load_bench(path: str | os.PathLike | None = None) -> Bench:
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
    questions: list[Bench6Question] = []
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
        questions.append(Bench6Question(row["qid"], row["qtype"], {"zh": row["question_zh"], "en": row["question_en"]}, tuple(ev)))
    published = None
    pub_path = base / "published_results.json"
    if pub_path.is_file():
        published = parse(read_text(pub_path), str(pub_path))
        if not isinstance(published, dict) or not isinstance(published.get("arms"), dict):
            raise DataError(f"{pub_path}: expected an object with 'arms'")
    return Bench(base, pool, questions, published, sorted(set(dangling)))
