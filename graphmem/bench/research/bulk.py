"""The research index: every turn scored at once by a ranker a strategy may replace.

Why on the research side: the product's stores rank with the live index's postings
(:mod:`graphmem.index.live`); an experiment that replaces a step (another ranker, another reply
field, extra scores, a rerank, the tf-idf ranking of the bench arms) needs every turn's scores at
once, from code that lives with the benchmark. The reading of each turn is not repeated here: it
is the live index's (:meth:`graphmem.index.live.LiveIndex.readings`: the utterance without
vocatives, the turn it replies to, its answer types and the days it speaks of), so a variant
differs from the shipped memory only in the step it replaces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cached_property

import numpy as np

from graphmem.domain import Turn
from graphmem.index.askers import Askers
from graphmem.index.conversations import best_conversations
from graphmem.index.live import LiveIndex
from graphmem.index.live_dense import Scorer, encoder, need_dense, with_context
from graphmem.index.live_search import named_first, seconds
from graphmem.index.options import MemoryOptions
from graphmem.index.people import People, speaker_key
from graphmem.index.query import Query
from graphmem.index.shape import shaped_fields
from graphmem.bench.research.ranker import Ranker
from graphmem.bench.research.strategies import Strategies
from graphmem.search import dense as embedding
from graphmem.text.terms import Vocabulary

__all__ = ["BulkIndex"]


class BulkIndex(People):
    """Every turn's fields, one vocabulary, one ranker (or the tf-idf cosine), built at once."""

    def __init__(self, records: Sequence[Turn], dense: bool, scope: bool, options: MemoryOptions,
                 strategies: Strategies = Strategies()):
        self.records = list(records)
        self._said_at: np.ndarray | None = None  # each turn's date in seconds, once a search is asked as of a moment
        self.scope, self.options, self.strategies = scope, options, strategies
        live = LiveIndex(options, scope=False)  # the memory's own reading of every turn
        live.add(self.records)
        read = live.readings(0)
        self.replied = read.replied
        said = read.said
        contexts = (strategies.contexts or _contexts)(self.records, said, self.replied)
        self.contexts = shaped_fields(options.shape, self.records, contexts, self.replied)
        texts = [f"{r.speaker}: {u}" for r, u in zip(self.records, said, strict=True)] if options.speaker else list(said)
        self.vocab = Vocabulary(texts)
        self.ranker = self._ranker(texts, read.types, read.spans) if strategies.ranking == "bm25" else None
        self.extra = strategies.extra_scores(self.records, said) if strategies.extra_scores is not None else None
        self.conv_names = list(dict.fromkeys(r.conversation for r in self.records))
        self.conv_ids = {c: i for i, c in enumerate(self.conv_names)}
        self.conv_of = np.array([self.conv_ids[r.conversation] for r in self.records], dtype=np.int64)
        self.tfidf = self.vocab.vectors(texts) if strategies.ranking == "tfidf" else None
        self.people: dict[str, set[str]] = {}
        for r in self.records:
            self.people.setdefault(speaker_key(r.speaker), set()).add(r.conversation)
        self.dense = self._dense_scores() if dense else None
        self.askers = Askers()
        self.askers.restore(self.records)

    def _ranker(self, texts: list[str], types: Sequence[tuple[str, ...]], spans: dict) -> Ranker:
        """The ranker over the indexed texts, with the turn replied to as second field, the answer
        types each turn gives and the days it speaks of (as the live index read them)."""
        o = self.options
        return self.strategies.ranker(
            texts, [r.date for r in self.records], k1=o.k1, b=o.b,
            contexts=self.contexts if o.context else None, context_weight=o.context_weight,
            types={kind: [kind in t for t in types] for kind in o.answer_types},
            spans=[spans.get(i, []) for i in range(len(self.records))] if o.spans else None)

    def _dense_scores(self) -> Scorer:
        """Each turn's embedding score (its best sentence's cosine, or the strategy's), mixed with
        the score of the turn it replies to at the context weight (:func:`with_context`)."""
        need_dense()
        own = (self.strategies.embedding or _turn_scores)(self.records, encoder(self.options.dense_engine))
        if not self.options.dense_context:
            return own
        return with_context(own, self.replied, self.options.context_weight)

    @cached_property
    def said_before(self) -> dict[str, str]:
        """What each turn replies to, by id (``Strategies.sure_context``)."""
        return dict(zip((r.id for r in self.records), self.contexts, strict=True))

    def scores(self, query: Query) -> np.ndarray:
        """Every turn's score for the query (0 where it does not match)."""
        if self.ranker is not None:
            scores = self.ranker.scores(query.text, asked_on=query.asked_on)
            if self.extra is not None:
                scores = scores + self.extra(query.text)
            if self.options.weighs_askers:  # as the live index: the person's own matched turns
                docs = np.flatnonzero(scores > 0)
                scores = scores.copy()  # a ranker's own array is never written into
                scores[docs] = self.askers.boost(query.of_asker, docs, scores[docs], self.ranker.idf)
        else:
            scores = (self.vocab.vectors([query.english]) @ self.tfidf.T).toarray()[0]
        if self.dense is not None:
            scores = embedding.fuse(scores, self.dense(query.text), self.options.dense_weight)
        if query.until is not None:  # as the live index: nothing said after the moment asked is found
            scores = np.where(self.said_by(query.until), scores, 0.0)
        return scores

    def said_by(self, moment: datetime) -> np.ndarray:
        """Whether each turn was said by ``moment`` (an undated turn has no moment to be after: kept)."""
        if self._said_at is None:
            self._said_at = np.array([seconds(r.date) for r in self.records], dtype=np.float64)
        return np.isnan(self._said_at) | (self._said_at <= seconds(moment))

    def search(self, query: Query, k: int, conversation: str | None) -> list[Turn]:
        """The k best turns (of one conversation), the named person's first, then reranked."""
        return [turn for turn, _ in self.scored(query, k, conversation)]

    def scored(self, query: Query, k: int, conversation: str | None,
               keep: Callable[[Turn], bool] | None = None) -> list[tuple[Turn, float]]:
        """:meth:`search`'s turns with their scores, of the turns ``keep`` accepts (None: every one)."""
        scores = self._kept(self.scores(query), keep)
        if conversation is not None:
            scores = np.where(self.conv_of == self.conv_ids.get(conversation, -1), scores, 0.0)
        docs = np.flatnonzero(scores > 0)
        first = self.named(query) if conversation is None and self.scope else set()
        inside = np.isin(self.conv_of[docs], [self.conv_ids[c] for c in first]) if first else None
        if self.strategies.rerank is None:
            return [(self.records[i], float(scores[i])) for i in named_first(docs, scores[docs], inside, k)]
        order = named_first(docs, scores[docs], inside, len(docs))
        at = {self.records[i].id: float(scores[i]) for i in order}
        return [(t, at[t.id]) for t in self.strategies.rerank([self.records[i] for i in order], self.people_in(query))[:k]]

    def _kept(self, scores: np.ndarray, keep: Callable[[Turn], bool] | None) -> np.ndarray:
        """The scores of the turns ``keep`` accepts, 0 elsewhere (every turn when None)."""
        if keep is None:
            return scores
        return np.where(np.fromiter(map(keep, self.records), dtype=bool, count=len(self.records)), scores, 0.0)

    def conversations(self, query: Query, k: int, keep: Callable[[Turn], bool] | None = None) -> list[str]:
        """The k conversations the query is most about, scored as the live index scores them
        (``rerank``, a turn order, takes no part)."""
        scores = self._kept(self.scores(query), keep)
        docs = np.flatnonzero(scores > 0)
        first = self.named(query) if self.scope else set()
        best = best_conversations(self.conv_of[docs], scores[docs], k,
                                  np.array([self.conv_ids[c] for c in first], dtype=np.int64),
                                  self.options.conversation_turns, self.options.conversation_rest)
        return [self.conv_names[c] for c in best]


def _contexts(records: Sequence[Turn], said: Sequence[str], replied: Sequence[int | None]) -> list[str]:
    """What each turn was said in reply to: that turn's utterance, or "" when there is none."""
    return [said[j] if j is not None else "" for j in replied]


def _turn_scores(records: Sequence[Turn], encoder_: embedding.Encoder) -> Scorer:
    """Each turn's best sentence's cosine with the query (``dense.Turns``)."""
    embedded = embedding.Turns(encoder_, [(r.speaker, r.text) for r in records])
    return lambda query: embedded.scores([query])[0]
