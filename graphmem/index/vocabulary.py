"""The reader's term weights, following the turns as they are ingested.

Why its own arithmetic: the confidence and the reader weigh a question's words by idf, and the
bulk index fits scikit-learn's :class:`~sklearn.feature_extraction.text.TfidfVectorizer` over
every turn; a live memory cannot refit on every ingest, so it keeps the document frequencies and
computes the same smoothed idf with the same float operations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = ["LiveVocabulary", "smoothed_idf"]


def smoothed_idf(n: int, dfs: Sequence[int]) -> np.ndarray:
    """The reader's weight of terms held by ``dfs`` of ``n`` turns: scikit-learn's smoothed idf,
    ``ln((1 + n) / (1 + df)) + 1``, with its float operations (written once: every store weighs
    words by it)."""
    df = np.asarray(dfs, dtype=np.float64) + 1.0
    idf = np.full_like(df, fill_value=n + 1, dtype=np.float64)
    idf /= df
    np.log(idf, out=idf)
    idf += 1.0
    return idf


class LiveVocabulary:
    """Inverse document frequencies that follow the turns: scikit-learn's smoothed idf,
    ``ln((1 + n) / (1 + df)) + 1``, computed with the same float operations as
    :class:`graphmem.text.terms.Vocabulary` fitted on the same texts, so the confidence and
    the reader weigh words exactly as the bulk index's vocabulary does."""

    def __init__(self) -> None:
        self.df: Counter[str] = Counter()
        self._by_df: Counter[int] = Counter()  # how many terms have each document frequency
        self.n = 0

    def __len__(self) -> int:
        return len(self.df)

    def add(self, terms: set[str]) -> None:
        self.n += 1
        self._move(terms, +1)

    def restore(self, n: int, terms: Sequence[str], doc: np.ndarray, term: np.ndarray) -> None:
        """Document frequencies of ``n`` documents at once (an empty vocabulary restored): each
        occurrence's document and term number (a position in ``terms``)."""
        self.n = n
        df = _holding(n, len(terms), doc, term).tolist()
        self.df = Counter({t: df[j] for j, t in enumerate(terms) if df[j]})
        self._by_df = Counter(self.df.values())

    def counts(self) -> tuple[int, list[str], np.ndarray]:
        """The documents counted, and each term's document frequency: what a saved memory keeps."""
        return self.n, list(self.df), np.fromiter(self.df.values(), dtype=np.int64, count=len(self.df))

    @classmethod
    def of_counts(cls, n: int, terms: Sequence[str], df: np.ndarray) -> LiveVocabulary:
        """The vocabulary :meth:`counts` gave."""
        vocab = cls()
        vocab.n = n
        vocab.df = Counter(dict(zip(terms, df.tolist(), strict=True)))
        vocab._by_df = Counter(vocab.df.values())
        return vocab

    def merge(self, n: int, terms: Sequence[str], doc: np.ndarray, term: np.ndarray) -> None:
        """``n`` more documents at once, given as :meth:`restore` takes them (documents counted
        from 0): each term's document frequency moves by how many of them hold it."""
        counts = _holding(n, len(terms), doc, term)
        self.n += n
        df, by_df = self.df, self._by_df
        for j in np.flatnonzero(counts).tolist():
            t, step = terms[j], int(counts[j])
            was = df.get(t, 0)
            if was:
                by_df[was] -= 1
            df[t] = was + step
            by_df[was + step] = by_df.get(was + step, 0) + 1

    def drop(self, terms: set[str]) -> None:
        """A document holding ``terms`` is gone."""
        self.n -= 1
        self._move(terms, -1)

    def replace(self, old: set[str], new: set[str]) -> None:
        self._move(old - new, -1)
        self._move(new - old, +1)

    def _move(self, terms: set[str], step: int) -> None:
        df, by_df = self.df, self._by_df  # dict.get, not Counter's missing-key call: once per term of every turn
        for t in terms:
            was = df.get(t, 0)
            if was:
                by_df[was] -= 1
            now = was + step
            if now:
                df[t] = now
                by_df[now] = by_df.get(now, 0) + 1
            else:
                del df[t]

    def _idf(self, dfs: Sequence[int]) -> np.ndarray:
        return smoothed_idf(self.n, dfs)

    @property
    def unseen(self) -> float:
        present = [d for d, count in self._by_df.items() if count > 0]
        return float(self._idf([min(present)])[0]) if present else 1.0

    def weight(self, term: str) -> float:
        df = self.df.get(term)
        return float(self._idf([df])[0]) if df else self.unseen

    def weights(self, terms: Iterable[str]) -> dict[str, float]:
        known = [t for t in dict.fromkeys(terms) if t in self.df]
        return dict(zip(known, (float(w) for w in self._idf([self.df[t] for t in known])), strict=True))


def _holding(n: int, m: int, doc: np.ndarray, term: np.ndarray) -> np.ndarray:
    """How many of ``n`` documents hold each of ``m`` terms, from each occurrence's document and
    term number (a term a document holds twice counts once)."""
    key = np.sort(term * max(n, 1) + doc)
    held = key[np.r_[True, key[1:] != key[:-1]]] // max(n, 1) if len(key) else key.astype(np.int64)
    return np.bincount(held, minlength=m)
