"""An inverted index that grows a document at a time and scores a query by its postings only.

Why its own structure: the memory must make a turn searchable the moment it is ingested, at a
cost that does not grow with what it already holds, and search at a cost set by the query.
A sparse matrix rebuilt per ingest does neither. Here each term keeps growable arrays of the
documents holding it and their term frequencies; statistics (document frequency, lengths, their
total) change with each document, so BM25 needs no refit; a query touches only its own terms'
postings and selects its top k without sorting the rest.

The arithmetic is :class:`graphmem.index.query.Ranker`'s, operation for operation, so scores are
bitwise the same as a bulk build over the same documents: term frequencies and lengths are sums
of field weights (halves and wholes, exact in binary floating point), the average length is their
exact total over n, and a document's score adds its groups' contributions in query order, as the
bulk ranker's ``out += ...`` does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import chain

import numpy as np

from graphmem.index.arrays import Grow, Weights

__all__ = ["DOC", "LAYOUT", "Postings", "field_counts", "term_ids", "top_k"]

TAIL = 32
"""A term's postings wait in a Python list (cheap to append to) until there are this many,
then move into its arrays: a query never converts more than this many per term, and a bulk
ingest leaves no long list for the first query to pay for."""


DENSE = 16
"""A union of postings holding at least one document in this many is taken by flags, not a sort
(:func:`_union`). Chosen by timing warm LoCoMo searches (a scratch timing; the two ways return the
same documents: docs/memory.md, "Figures behind the code"): flagging a common word's postings beats
sorting them, and flags alone would also pay a pass over every document for a rare word's few
postings, which this threshold leaves to the sort."""

HELD = 4096
"""At most this many query groups' document frequencies are remembered (:meth:`Postings._held`)."""

LAYOUT = 1
"""How the postings are laid out and what their arithmetic leaves in them (their arrays, the
float32 rule, how a batch's columns are summed): a saved memory's snapshot of another layout is
not read (:mod:`graphmem.store.sqlite.snapshot`). Raise it with any change to what :meth:`Postings.arrays`
would give for the same turns."""

DOC = np.int32
"""A posting's document number: half an int64's bytes, for a memory of up to 2**31 turns. Term
frequencies are :class:`Weights`, read as float64, so the arithmetic stays the bulk ranker's."""


def field_counts(own: Sequence[str], reply: Sequence[str], weight: float) -> tuple[dict[str, float], float]:
    """A turn's BM25F term frequencies and length: each term's count in the turn's own field plus
    ``weight`` times its count in the reply field, and the fields' lengths weighted alike (one
    length normalisation for both: Robertson, Zaragoza & Taylor's simple BM25F). A batch of turns
    is counted by the same rule column by column (:func:`_columns`); ``cypher/search_bm25f.cypher``
    counts it in the database."""
    counts: dict[str, float] = {}
    for t in own:
        counts[t] = counts.get(t, 0.0) + 1.0
    if weight:
        for t in reply:
            counts[t] = counts.get(t, 0.0) + weight
    return counts, float(len(own)) + (weight * len(reply) if weight else 0.0)


class Postings:
    """Per term, the documents holding it and how often (weighted); per document, its length.

    A document is added once with its weighted term counts; it may later be replaced (its reply
    field changed, say) by giving the counts it had and the counts it has now.
    """

    def __init__(self, k1: float, b: float):
        self.k1, self.b = k1, b
        self.index: dict[str, int] = {}
        self._docs: list[Grow] = []
        self._tfs: list[Weights] = []
        self._sorted: list[bool] = []
        self._tail: list[list[tuple[int, float]]] = []
        self.df: list[int] = []
        self.length = Grow(np.float64)  # as LiveIndex.conv_of: an index per user, most of them small
        self.total = 0.0
        self.n = 0
        self.gone = 0
        """Documents dropped (:meth:`drop`): they keep their numbers, and count in no statistic."""
        self._version: list[int] = []  # per term, moved on whenever its postings change
        self._held_of: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}

    def __len__(self) -> int:
        return self.n

    @classmethod
    def built(cls, k1: float, b: float, n: int, terms: Sequence[str],
              fields: Sequence[tuple[np.ndarray, np.ndarray, float]]) -> Postings:
        """Postings of ``n`` documents at once. ``terms`` are every term, numbered by position;
        each field is (document, term number, weight) per occurrence, the documents' own text
        first at weight 1. Counts and lengths come out as :meth:`add` makes them one document at
        a time (see :func:`_columns`), so a restored memory scores bit for bit as the one that
        was saved. One sort of every occurrence, no Python step per document."""
        p = cls(k1, b)
        lengths, holder, tf, df = _columns(n, terms, fields)
        p.n = n
        p.length = Grow(np.float64, max(1024, n))
        p.length.extend(lengths)
        p.total = float(lengths.sum())
        m = len(terms)
        p.index = {t: j for j, t in enumerate(terms)}
        bounds = np.r_[0, np.cumsum(df)].tolist()
        p._docs = [Grow.of(holder[a:z]) for a, z in zip(bounds[:-1], bounds[1:])]
        narrow = tf.astype(np.float32)
        tf = narrow if np.array_equal(narrow, tf) else tf  # as Weights keeps them
        p._tfs = [Weights.of(tf[a:z]) for a, z in zip(bounds[:-1], bounds[1:])]
        p._sorted, p._tail, p.df = [True] * m, [[] for _ in range(m)], df.tolist()
        p._version = [0] * m
        return p

    def arrays(self) -> tuple[list[str], dict[str, np.ndarray], float]:
        """Everything the postings hold, flat: the terms in number order, their arrays end to end
        (each term's waiting list moved into its arrays first) and the lengths' total. What a saved
        memory keeps on closing (:mod:`graphmem.store.sqlite.snapshot`), so reopening rebuilds nothing."""
        for j, tail in enumerate(self._tail):
            if tail:
                self._flush(j)
        terms = sorted(self.index, key=self.index.__getitem__)
        m = len(terms)
        flat = {
            "sizes": np.fromiter((g.size for g in self._docs), dtype=np.int64, count=m),
            "docs": np.concatenate([g.view() for g in self._docs]).astype(DOC, copy=False) if m else np.zeros(0, dtype=DOC),
            "tfs": np.concatenate([w.view() for w in self._tfs]).astype(np.float64, copy=False) if m else np.zeros(0),
            "wide": np.fromiter((w.view().dtype == np.float64 for w in self._tfs), dtype=np.bool_, count=m),
            "sorted": np.asarray(self._sorted, dtype=np.bool_), "df": np.asarray(self.df, dtype=np.int64),
            "length": self.length.view().copy(),
        }
        return terms, flat, self.total

    @classmethod
    def of_arrays(cls, k1: float, b: float, terms: Sequence[str], flat: Mapping[str, np.ndarray], total: float) -> Postings:
        """The postings :meth:`arrays` gave, as they were: each term's arrays views of the flat
        ones (as :meth:`built` makes them), narrow where they were narrow."""
        p = cls(k1, b)
        p.n = len(flat["length"])
        p.length = Grow(np.float64, max(1024, p.n))
        p.length.extend(flat["length"])
        p.total = total
        p.index = {t: j for j, t in enumerate(terms)}
        bounds = np.r_[0, np.cumsum(flat["sizes"])].tolist()
        spans = list(zip(bounds[:-1], bounds[1:]))
        docs, wide, narrow = flat["docs"], flat["tfs"], flat["tfs"].astype(np.float32)
        p._docs = [Grow.of(docs[a:z]) for a, z in spans]
        p._tfs = [Weights.of(wide[a:z] if w else narrow[a:z]) for (a, z), w in zip(spans, flat["wide"].tolist())]
        p._sorted, p._tail, p.df = flat["sorted"].tolist(), [[] for _ in terms], flat["df"].tolist()
        p._version = [0] * len(terms)
        return p

    def extend(self, n: int, terms: Sequence[str], fields: Sequence[tuple[np.ndarray, np.ndarray, float]]) -> None:
        """``n`` documents added at once after every one held, given as :meth:`built` takes them
        (documents counted from 0), as :meth:`add` would add them one at a time: each term's new
        postings after its old ones (a sorted term stays sorted), into its waiting list when they
        are few (as add leaves them), into its arrays when many; document frequencies and lengths
        summed (exact: lengths are sums of halves and wholes). A term costs one step, not one per
        occurrence."""
        lengths, holder, tf, df = _columns(n, terms, fields)
        first, at = self.n, 0
        docs, tfs = (holder.astype(np.int64) + first).tolist(), tf.tolist()
        shifted = holder + first
        narrow = tf.astype(np.float32)  # every Weights asks whether its values fit a float32: asked once here
        tf = narrow if np.array_equal(narrow, tf) else tf
        index, tails, dfs, versions = self.index, self._tail, self.df, self._version
        for term, count in zip(terms, df.tolist()):
            if not count:
                continue
            j = index.get(term)
            if j is None:
                j = self._term(term)
            tail, end = tails[j], at + count
            if len(tail) + count < TAIL:
                tail.extend(zip(docs[at:end], tfs[at:end]))
            else:
                self._flush(j)
                self._docs[j].extend(shifted[at:end])
                self._tfs[j].extend(tf[at:end])
            dfs[j] += count
            versions[j] += 1
            at = end
        self.length.extend(lengths)
        self.total += float(lengths.sum())
        self.n += n

    def known(self, term: str) -> bool:
        return term in self.index and self.df[self.index[term]] > 0

    def add(self, counts: Mapping[str, float], length: float) -> int:
        """A new document; returns its number (documents are numbered in the order added)."""
        doc = self.n
        self.n += 1
        self.length.append(length)
        self.total += length
        index, tails, df, versions = self.index, self._tail, self.df, self._version
        for term, tf in counts.items():
            j = index.get(term)
            if j is None:
                j = self._term(term)
            tail = tails[j]
            tail.append((doc, tf))
            if len(tail) >= TAIL:
                self._flush(j)
            df[j] += 1
            versions[j] += 1
        return doc

    def _flush(self, j: int) -> None:
        """Move term j's recent postings (a Python list: appending is cheap) into its arrays."""
        tail = self._tail[j]
        if tail:
            docs, tfs = zip(*tail)
            self._docs[j].extend(docs)
            self._tfs[j].extend(tfs)
            tail.clear()

    def replace(self, doc: int, old: Mapping[str, float], new: Mapping[str, float], length: float) -> None:
        """Document ``doc`` now has ``new`` counts instead of ``old`` (only the terms that changed move)."""
        self.total += length - float(self.length[doc])
        self.length[doc] = length
        for term in old.keys() - new.keys():
            self._set(doc, term, 0.0)
        for term, tf in new.items():
            if old.get(term) != tf:
                self._set(doc, term, tf)

    def _term(self, term: str) -> int:
        j = self.index.get(term)
        if j is None:
            j = self.index[term] = len(self._docs)
            self._docs.append(Grow(DOC))
            self._tfs.append(Weights())
            self._sorted.append(True)
            self._tail.append([])
            self.df.append(0)
            self._version.append(0)
        return j

    def _set(self, doc: int, term: str, tf: float) -> None:
        j = self._term(term)
        self._flush(j)
        self._version[j] += 1
        docs = self._docs[j].view()
        if self._sorted[j]:
            at = int(np.searchsorted(docs, doc))
            found = at < len(docs) and docs[at] == doc
        else:
            hits = np.flatnonzero(docs == doc)
            found, at = len(hits) > 0, int(hits[0]) if len(hits) else 0
        if found:
            was = float(self._tfs[j][at])
            self._tfs[j][at] = tf
            self.df[j] += (tf > 0) - (was > 0)
        elif tf > 0:
            if len(docs) and docs[-1] > doc:
                self._sorted[j] = False
            self._docs[j].append(doc)
            self._tfs[j].append(tf)
            self.df[j] += 1

    def drop(self, doc: int, counts: Mapping[str, float]) -> None:
        """Document ``doc`` (holding ``counts``) is gone: it holds no term, no length, and is not counted."""
        self.replace(doc, counts, {}, 0.0)
        self.gone += 1

    def drop_many(self, dropped: Sequence[tuple[int, Mapping[str, float]]]) -> None:
        """Documents gone at once (distinct, each with the counts it holds): what :meth:`drop` leaves
        of them one by one, each term's postings searched once for all its documents.

        Why: a conversation forgotten whole drops hundreds of turns that share most of their terms,
        and one term at a time for each would search a common term's postings once per turn."""
        by_term: dict[str, list[int]] = {}
        for doc, counts in dropped:  # the total moves document by document, as drop moves it
            self.total += 0.0 - float(self.length[doc])
            self.length[doc] = 0.0
            self.gone += 1
            for term in counts:
                by_term.setdefault(term, []).append(doc)
        for term, docs in by_term.items():
            if len(docs) == 1:  # a term of one of them (and every term of one turn forgotten): as drop does it
                self._set(docs[0], term, 0.0)
                continue
            j = self._term(term)
            self._flush(j)
            self._version[j] += len(docs)
            at = _places(self._docs[j].view(), np.unique(docs), self._sorted[j])
            tfs = self._tfs[j].view()  # a 0.0 is a float32: the array written as it is
            self.df[j] -= int(np.count_nonzero(tfs[at] > 0))
            tfs[at] = 0.0

    def idf(self, df: float) -> float:
        return math.log(1.0 + (self.n - self.gone - df + 0.5) / (df + 0.5))

    def _avg(self) -> float:
        held = self.n - self.gone
        avg = self.total / held if held else 0.0
        return avg if avg > 0 else 1.0

    def group(self, terms: Sequence[str], within: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """One query group's documents and BM25 contributions (its alternatives' tf summed).
        ``within`` (sorted document numbers): only those documents, scored exactly as the whole
        group scores them (its idf is still the whole memory's), at a cost set by ``within``
        and not by how many documents hold the terms."""
        cols = [self.index[t] for t in terms if t in self.index]
        for c in cols:
            self._flush(c)
        if not cols:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        if within is not None:
            ats = [_inside(self._docs[c].view(), within, self._sorted[c]) for c in cols]
            parts = [(self._docs[c].view()[at], self._tfs[c].view()[at]) for c, at in zip(cols, ats)]
            docs, tf = parts[0] if len(parts) == 1 else _added(parts)
        elif len(cols) == 1:
            docs, tf = self._docs[cols[0]].view(), self._tfs[cols[0]].view()
        else:
            docs = _union([self._docs[c].view() for c in cols])
            tf = _summed(self.n, [(self._docs[c].view(), self._tfs[c].view()) for c in cols], docs)
        keep = tf > 0
        docs, tf = docs[keep], tf[keep].astype(np.float64)  # Weights may hold float32: the arithmetic is float64
        if not len(docs):
            return docs, tf
        held = len(docs) if within is None else self._held(cols)
        norm = self.k1 * (1.0 - self.b + self.b * self.length.view()[docs] / self._avg())
        return docs, self.idf(held) * tf * (self.k1 + 1.0) / (tf + norm)

    def _held(self, cols: Sequence[int]) -> int:
        """How many documents hold any of these terms (a group's document frequency): one term's is
        its ``df``; several terms', a union of their postings, remembered until one of them changes.
        So a search within a few documents reads no common word's postings to weigh it but those of a
        group of alternatives just added to. (Postings flushed, as :meth:`group` leaves them.)"""
        if len(cols) == 1:
            return self.df[cols[0]]
        key, now = tuple(cols), tuple(self._version[c] for c in cols)
        known = self._held_of.get(key)
        if known is not None and known[0] == now:
            return known[1]
        held = len(_union([self._docs[c].view()[self._tfs[c].view() > 0] for c in cols]))
        if len(self._held_of) >= HELD:
            self._held_of.clear()
        self._held_of[key] = (now, held)
        return held

    def flat(self, docs: np.ndarray, within: np.ndarray | None = None,
             distinct: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """A set of documents matched as one term of one occurrence in a turn of average length.
        ``distinct``: ``docs`` are already sorted and each once (no union taken). ``within``: only
        those of ``docs``, weighed as the whole set is."""
        docs = np.asarray(docs, dtype=np.int64) if distinct else _union([np.asarray(docs, dtype=np.int64)])
        if not len(docs):
            return docs, np.zeros(0)
        weight = self.idf(len(docs))
        if within is not None:
            docs = docs[_inside(docs, within, True)]
        return docs, np.full(len(docs), weight)

    @staticmethod
    def combine(parts: Sequence[tuple[np.ndarray, np.ndarray]], few: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Per document, the sum of its parts' contributions, added in the parts' order. ``few``:
        the parts hold few documents (a search within some), so no array spans every document."""
        parts = [p for p in parts if len(p[0])]
        if not parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        if few:
            return _added(parts)
        docs = _union([d for d, _ in parts])
        return docs, _summed(int(docs[-1]) + 1, parts, docs)


def _union(docs: Sequence[np.ndarray]) -> np.ndarray:
    """The documents of every array, sorted, each once. Few: one sort of them all (``np.unique``
    here hashes, and for postings that is several times slower). Many (one for every ``DENSE``
    documents up to the largest, or more): each marked in a flag per document, read back in
    order, which costs a pass over a byte per document but no sort: a common word's postings."""
    total = sum(len(d) for d in docs)
    top = max((int(d.max()) for d in docs if len(d)), default=-1) + 1
    if total * DENSE < top:
        every = np.sort(np.concatenate(docs))
        return every[_firsts(every)]
    seen = np.zeros(top, dtype=bool)
    for d in docs:
        seen[d] = True
    return np.flatnonzero(seen)


def _summed(n: int, parts: Sequence[tuple[np.ndarray, np.ndarray]], docs: np.ndarray) -> np.ndarray:
    """Per document of ``docs`` (every document of the parts, below ``n``), its values in the parts
    added in the parts' order, from 0.0, as a bincount over them would add them. Each part names a
    document at most once, so one vectorised add per part does it; the zeroed array costs only the
    pages the parts touch (a large ``np.zeros`` is mapped zeroed, not written), not a sort."""
    acc = np.zeros(n)
    for d, values in parts:
        acc[d] += values
    return acc[docs]


def _added(parts: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_union` and :func:`_summed` for parts of few documents: the same documents and the
    same sums, added in the same order from 0.0, in arrays as long as the parts, not the memory."""
    every = np.sort(np.concatenate([d for d, _ in parts]))
    docs = every[_firsts(every)]
    acc = np.zeros(len(docs))
    for d, values in parts:
        acc[np.searchsorted(docs, d)] += values
    return docs, acc


def _inside(docs: np.ndarray, within: np.ndarray, ordered: bool) -> np.ndarray | slice:
    """Where the documents of ``within`` (sorted, each once) are in ``docs`` (each once; sorted if
    ``ordered``), in ascending order, to index ``docs`` by: a run of consecutive documents (a
    conversation ingested at once) is two binary searches and a slice; otherwise each of the fewer
    is looked up in the other by a binary search."""
    if not len(docs) or not len(within):
        return np.zeros(0, dtype=np.int64)
    if ordered and int(within[-1]) - int(within[0]) + 1 == len(within):
        a, z = np.searchsorted(docs, (within[0], within[-1] + 1)).tolist()
        return slice(a, z)
    if ordered and len(within) < len(docs):
        at = np.minimum(np.searchsorted(docs, within), len(docs) - 1)
        return at[docs[at] == within]
    at = np.minimum(np.searchsorted(within, docs), len(within) - 1)
    return np.flatnonzero(within[at] == docs)


def _places(held: np.ndarray, docs: np.ndarray, ordered: bool) -> np.ndarray:
    """Where a term's documents ``held`` (sorted if ``ordered``) hold those of ``docs`` (sorted, each
    once), each at the first place that holds it, as :meth:`Postings._set` finds one."""
    if ordered:
        at = np.searchsorted(held, docs)
        inside = at < len(held)
        at = at[inside]
        return at[held[at] == docs[inside]]
    at = np.flatnonzero(np.isin(held, docs))
    return at[np.unique(held[at], return_index=True)[1]]


def _firsts(ordered: np.ndarray) -> np.ndarray:
    """Where each run of equal values starts in a sorted array."""
    return np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]]) if len(ordered) else np.zeros(0, dtype=np.int64)


def _columns(n: int, terms: Sequence[str], fields: Sequence[tuple[np.ndarray, np.ndarray, float]]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Postings of ``n`` documents in four arrays: each document's length (each field's weight
    times its size), every (term, document) pair's document and term frequency, ordered by term
    then document, and each term's document frequency. A term frequency is its occurrences in
    field order added one weight at a time, as :meth:`Postings.add`'s counts sum them."""
    nn, many = max(n, 1), len(fields)
    lengths = np.zeros(n)
    for doc, _term, w in fields:
        lengths += w * np.bincount(doc, minlength=n).astype(np.float64)
    key = np.sort(np.concatenate([(term * nn + doc) * many + f for f, (doc, term, _w) in enumerate(fields)]))
    starts = _firsts(key)
    runs, run_key = np.diff(np.r_[starts, len(key)]), key[starts]  # occurrences per (term, document, field)
    pair, field = run_key // many, run_key % many
    firsts = _firsts(pair)
    pairs = pair[firsts]
    run_pair = np.repeat(np.arange(len(pairs)), np.diff(np.r_[firsts, len(pair)]))
    tf = np.zeros(len(pairs))
    for f, (_doc, _term, w) in enumerate(fields):
        mine = field == f
        at, count = run_pair[mine], runs[mine]  # each pair's run in this field, once
        added = 0
        while len(at):  # one weight at a time, as add() sums them, over the pairs with that many left
            tf[at] += w
            added += 1
            more = count > added
            at, count = at[more], count[more]
    owner, holder = pairs // nn, (pairs % nn).astype(DOC)
    return lengths, holder, tf, np.bincount(owner, minlength=len(terms))


def term_ids(docs: Sequence[Sequence[str]], index: Mapping[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Every document's terms as their numbers in ``index``, end to end, and each document's
    count of terms: a restore's arrays, made without a Python step per document."""
    lens = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
    ids = np.fromiter(map(index.__getitem__, chain.from_iterable(docs)), dtype=np.int64, count=int(lens.sum()))
    return ids, lens


def top_k(docs: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    """The k best documents, best first, ties by document number: what a stable sort of all
    scores descending would give, without sorting more than the ties at the k-th place."""
    if k <= 0 or not len(docs):
        return np.zeros(0, dtype=np.int64)
    if len(docs) > k:
        kth = np.partition(-scores, k - 1)[k - 1]
        keep = -scores <= kth
        docs, scores = docs[keep], scores[keep]
    order = np.lexsort((docs, -scores))
    return docs[order[:k]]
