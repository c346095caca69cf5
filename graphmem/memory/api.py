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
to (``graphmem.memory.index._contexts``); a question asking when or how long also matches the turns that say
when or how long (``graphmem.text.dates.answer_type``), and a date it names also matches the
turns that speak of that day (``graphmem.memory.index._spans``). On LoCoMo's answerable questions the four
bring the evidence first more often (hit@1 0.373 -> 0.451, hit@5 0.619 -> 0.724) and on
adversarial ones, which name the wrong person, less often (hit@1 0.348 -> 0.287;
``python bench/memory_locomo.py --compare plain``). Queries written in Chinese are
glossed into English offline (``graphmem.text.zh``, optional extra ``zh``); with
``dense=True`` and the optional ``dense`` extra, a multilingual embedding's cosines
(each turn's shared with the turn it replies to, at the same half weight) are fused with
the lexical ones.

With ``backend="neo4j"`` the database is the memory (:mod:`graphmem.memory.graphdb`): each
ingest is one transaction writing the new turns, their claims and search fields; a search runs
in Neo4j's full-text index and is re-ranked by the same BM25F (with ``dense=True`` its vector
index proposes too, and the two sides are fused there); nothing is held in the process, so any
number of processes share one database. Ids are scoped there: ``conversation/id``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from graphmem.answer.reader import ABSTAIN, Hit, Reader, ReaderSettings
from graphmem.answer.sure import sure
from graphmem.claims.gcpause import paused_gc
from graphmem.claims.records import Claim
from graphmem.data.records import DEFAULT_CONVERSATION, Record, conversations, parse_date, read_jsonl, validate  # noqa: F401  (re-exported: the API takes and names them)
from graphmem.errors import DataError
from graphmem.memory.claims import MemoryClaims, ingest_moment
from graphmem.memory.live import LiveIndex, supports
from graphmem.memory.index import _Index
from graphmem.memory.meaning import MEANING_FLOOR, meaning as _meaning
from graphmem.memory.options import MemoryOptions
from graphmem.memory.saved import MemoryFile
from graphmem.memory.shape import is_assistant, reader_settings

When = datetime | date | str | None
"""When a query is asked (``asked_on``): a datetime, a day, or a date string as records take."""

RANKINGS = ("bm25", "tfidf")
"""How turns are scored: ``bm25`` (default: BM25 with structured queries and the dates a
query names, :mod:`graphmem.memory.rank`) or ``tfidf`` (the tf-idf cosine the bench arms use)."""


@dataclass(frozen=True)
class Answer:
    """What ``ask`` returns: the reply, the turns it cites (best first) and the confidence."""

    reply: str
    cited: tuple[str, ...]
    confidence: float
    measure: str = "coverage"
    """What ``confidence`` is: ``coverage`` (a share of the question's words, in [0, 1]) or
    ``meaning`` (a cosine; :mod:`graphmem.memory.meaning`), each with its own floor."""

    @property
    def quiet(self) -> bool:
        return self.reply == ABSTAIN


FLOOR = 0.30
"""The confidence below which ``ask`` abstains by default: the bench's own ``--floor``."""


class Memory:
    """A conversational memory over dialogue turns; in process, or kept in Neo4j too.

    ``options`` holds the index's research settings (:class:`MemoryOptions`; the defaults
    are what ships), for measuring an alternative without changing the memory's code.
    """

    def __init__(self, backend: str = "memory", *, floor: float = FLOOR, settings: ReaderSettings = ReaderSettings(),
                 dense: bool = False, scope: bool = True, ranking: str = "bm25",
                 options: MemoryOptions = MemoryOptions(), path: str | os.PathLike | None = None,
                 confidence: str = "coverage", meaning_floor: float = MEANING_FLOOR, **neo4j: Any):
        if backend not in ("memory", "neo4j"):
            raise DataError(f"unknown backend {backend!r}: choose 'memory' or 'neo4j'")
        if ranking not in RANKINGS:
            raise DataError(f"unknown ranking {ranking!r}: choose {' or '.join(map(repr, RANKINGS))}")
        self.ranking = ranking
        self.floor = floor
        self.meaning_floor = meaning_floor
        self._meaning = _meaning(confidence, options)  # the extra and WordNet checked before anything is built
        self.settings = settings
        self.options = options
        self.records: list[Record] = []
        self._ids: set[str] = set()
        self._index: _Index | None = None
        self._dense = dense
        self._scope = scope
        # the live index when it serves these settings; else the bulk one, rebuilt when read
        embedded = backend == "memory"
        self._live = LiveIndex(options, scope, dense) if embedded and supports(options, dense, ranking) else None
        self._claims = MemoryClaims()
        self._graph = None
        self._file: MemoryFile | None = None
        self._lock = threading.RLock()  # one thread may ingest while others search
        self._closed = False
        self._path: Path | None = None
        if path is not None:
            self._open(path, backend)
        if backend == "neo4j":
            if ranking != "bm25" or not supports(options, False, ranking):
                raise DataError("Memory(backend='neo4j') searches in the database with the shipped ranking:"
                                " not with ranking='tfidf' or a research strategy")
            from graphmem.memory import graphdb  # the driver and the claim reader: this backend only

            self._graph = graphdb.GraphMemory(options, scope, dense=dense, **neo4j)

    def _open(self, path: str | os.PathLike, backend: str) -> None:
        """A saved memory: its turns and their reading restored, nothing read again."""
        if backend != "memory" or self._live is None or self._dense:
            raise DataError("Memory(path=...) keeps the embedded memory with its lexical index:"
                            " not with backend='neo4j', dense=True, ranking='tfidf' or a research strategy")
        self._file = MemoryFile(path, self.options)
        try:
            self.records = self._file.load(self._live)
        except BaseException:  # a file that cannot be restored keeps no lock
            self._file.close()
            self._file = None
            raise
        self._ids = {r.id for r in self.records}
        self._claims = MemoryClaims(self._file)
        self._path = Path(path)

    def close(self) -> None:
        """Close a saved memory's file (``with Memory(path=...) as mem:`` does it on leaving)."""
        with self._lock:
            if self._file is not None:
                file, self._file, self._closed = self._file, None, True
                file.close(self._live)  # its postings kept for the next open
            if self._graph is not None:
                self._graph.close()
                self._graph = None
                self._closed = True

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return self._graph.count() if self._graph is not None else len(self.records)

    def ingest(self, records: Iterable[Mapping[str, Any]]) -> int:
        """Add dialogue turns (dicts with id, speaker, text; optional date, conversation).

        All records are validated first; a bad one raises ``DataError`` naming it and
        nothing is ingested. Returns how many turns were added.
        """
        with self._lock:
            self._open_or_raise()
            if self._graph is not None:  # duplicates are judged in the database, within a conversation
                new = validate(list(records), set())
                if new:
                    self._graph.ingest(new)
                return len(new)
            with paused_gc():  # records, readings, postings: many small acyclic objects
                new = validate(list(records), self._ids)
                self._add(new)
            return len(new)

    def check(self, records: Sequence[Mapping[str, Any]], source: str = "record") -> None:
        """Validate records against what the memory holds, adding nothing (``DataError`` names
        the first bad one): a long file is checked whole before its first batch is ingested."""
        with self._lock:
            validate(list(records), self._ids, source)

    def _open_or_raise(self) -> None:
        if self._closed:
            raise DataError(f"{self._path or 'the Neo4j memory'}: this memory was closed; open it again")

    def _add(self, new: Sequence[Record]) -> None:
        first = len(self.records)
        self.records.extend(new)
        self._ids.update(r.id for r in new)
        if self._live is None:
            self._claims.defer(new)
            self._index = None
            return
        now = ingest_moment()
        try:
            self._live.add(new)
            self._claims.defer(new, now)  # read when asked for (MemoryClaims.defer)
            if self._file is not None and new:  # the turns, their reading and their claims waiting: one transaction, last
                self._file.save(self._live, first, now)
            self._live.changed.clear()
        except BaseException:  # the memory goes back to what it held (and its file holds) before
            self._rewind(first)
            raise

    def _rewind(self, first: int) -> None:
        """The memory as it was before its last ``_add`` (whose file's transaction, the last step
        that can fail, did not commit): from its file, or its earlier records and claims."""
        self._live = LiveIndex(self.options, self._scope, self._dense)
        if self._file is not None:
            self.records = self._file.load(self._live)
            self._claims = MemoryClaims(self._file)
        else:
            del self.records[first:]
            self._live.add(self.records)  # the claims are as they were: the failed turns were never deferred
        self._ids = {r.id for r in self.records}

    def claims(self, conversation: str = DEFAULT_CONVERSATION) -> tuple[Claim, ...]:
        """The claims read from a conversation's turns, in turn order (:mod:`graphmem.memory.claims`).
        Embedded, the first call for a conversation reads its turns' claims (about 0.15 ms a turn;
        a saved memory writes them to its file, so they are read once), holding the memory's lock,
        so an ingest or a search waits for it; later calls read only the turns ingested since."""
        with self._lock:
            self._open_or_raise()
            return self._claims.claims(conversation)

    def search(self, query: str, k: int = 5, conversation: str | None = None, asked_on: When = None) -> list[str]:
        """Turn ids best first (at most k). ``asked_on`` (a datetime, a date, or a date string
        as records take): when the query is asked, so its relative dates ("10 days ago", "last
        week") name days, as the dates it names ("in May 2023") always do; without it they name none."""
        return [r.id for r in self._search(query, k, conversation, asked_on)]

    def records_for(self, query: str, k: int = 5, conversation: str | None = None, asked_on: When = None) -> list[Record]:
        """The turns ``search`` returns, as records (speaker, text, date, conversation), best first."""
        return self._search(query, k, conversation, asked_on)

    def search_conversations(self, query: str, k: int = 5, asked_on: When = None) -> list[str]:
        """The conversations the query is most about, best first (at most k): which past chat to
        show, or to read whole. Each scores its best turn and, at a fraction, its next best
        (:mod:`graphmem.memory.conversations`), the named person's conversations first, as
        ``search`` puts their turns; ``asked_on`` as for ``search``."""
        return self._asked(query, k, asked_on, lambda index, when: index.conversations(query, k, when))

    def ask(self, question: str, k: int = 5, conversation: str | None = None, asked_on: When = None) -> Answer:
        """The reply (extractive, or ``No information available``), the cited turns, the confidence."""
        if self._meaning is None:
            with self._lock:  # searched and read against the same turns
                return self.answer_from(question, self._search(question, k, conversation, asked_on))
        # the meaning confidence reads more turns than are cited, and embeds them without the memory's
        # lock (an ingest need not wait for it): the reader may see turns ingested since the search
        found = self._search(question, max(k, self.confidence_turns) if k > 0 else k, conversation, asked_on)
        return self.answer_from(question, found, cite=k)

    @property
    def confidence_turns(self) -> int:
        """How many of the turns found ``answer_from`` judges its confidence by: the first (word
        coverage), or ``MemoryOptions.meaning_turns`` with ``confidence="meaning"``."""
        return self._meaning.turns if self._meaning is not None else 1

    def answer_from(self, question: str, found: Sequence[Record], cite: int | None = None) -> Answer:
        """The answer read off turns already found (``records_for``), best first: what
        ``ask`` does after searching, for a caller that also wants the records. The reader reads
        and cites the first ``cite`` of them (None: all). With ``confidence="meaning"`` the
        confidence is judged by the first ``confidence_turns`` of ``found``: pass that many, as
        ``ask`` does, to have it as ``ask`` has it."""
        measure = "meaning" if self._meaning is not None and found and self._assisted(found[0].conversation) \
            else "coverage"
        cited = found[:cite]
        if not cited:  # nothing found, or nothing to cite: nothing to judge
            return Answer(ABSTAIN, (), 0.0, measure if found or self._meaning is None else "meaning")
        if measure == "coverage":
            return self._read(question, cited, None, measure)
        return self._read(question, cited, self._meaning(question, found), measure)

    def floor_of(self, answer: Answer) -> float:
        """The floor ``answer``'s confidence was held against: the coverage's or the meaning's."""
        return self.meaning_floor if answer.measure == "meaning" else self.floor

    def _assisted(self, conversation: str) -> bool:
        """Whether an assistant speaks in ``conversation``: the shape the meaning confidence is for."""
        with self._lock:
            speakers = self._graph.speakers(conversation) if self._graph is not None else self._built().speakers_in(conversation)
        return any(is_assistant(who) for who in speakers)

    def _read(self, question: str, found: Sequence[Record], confidence: float | None, measure: str) -> Answer:
        """The extractive reader over ``found`` when ``confidence`` (None: the first turn's word
        coverage, computed here) reaches the ``measure``'s floor."""
        with self._lock:  # the vocabulary may not move under the reader
            first = found[0].text
            if self._graph is not None:  # the weights of the words asked and found, from the database
                english = self._graph.english(question)
                vocab = self._graph.vocabulary(english, found)
            else:
                index = self._built()
                english, vocab = index.english(question), index.vocab
                if self.options.sure_context:  # the turn read together with the turn it replies to
                    first = f"{index.said_before[found[0].id]} {first}"
            if confidence is None:
                confidence = sure(vocab, english, first, unseen=self.options.sure_unseen)
            hits = [Hit(r.id, r.text, r.date or datetime.now()) for r in found]
            settings = reader_settings(self.options.phrase, self.settings, found)
            answer = Answer(ABSTAIN, tuple(r.id for r in found), confidence, measure)
            if confidence < self.floor_of(answer):
                return answer
            return replace(answer, reply=Reader(vocab, settings).read(english, hits))

    def build(self) -> None:
        """Build the search index now (otherwise the first search does); in Neo4j the index
        is the database's, searchable at each ingest's commit, so there is nothing to build."""
        if self._graph is not None:
            return
        with self._lock:
            self._built()

    def _built(self) -> _Index | LiveIndex:
        if self._live is not None:
            return self._live
        if self._index is None:
            self._index = _Index(self.records, self._dense, self._scope, self.ranking, self.options)
        return self._index

    def _search(self, query: str, k: int, conversation: str | None, asked_on: When = None) -> list[Record]:
        return self._asked(query, k, asked_on, lambda index, when: index.search(query, k, conversation, when))

    def _asked(self, query: str, k: int, asked_on: When, run: Callable[[Any, datetime | None], list]) -> list:
        """``run`` (a search of turns or of conversations) over whatever serves this memory (Neo4j,
        or the embedded index, built if need be), under the memory's lock, the query checked first
        and nothing asked for k <= 0 or of an empty memory."""
        if not isinstance(query, str):
            raise DataError(f"a query must be a string, not {type(query).__name__}")
        when = _moment(asked_on)
        with self._lock:
            self._open_or_raise()
            if k <= 0:
                return []
            if self._graph is not None:
                return run(self._graph, when)
            if not self.records:
                return []
            return run(self._built(), when)


def _moment(asked_on: When) -> datetime | None:
    """The moment a query is asked, from what a caller may hold: a datetime, a day (its start),
    or a date string in any form a record's date takes."""
    if isinstance(asked_on, date) and not isinstance(asked_on, datetime):
        return datetime(asked_on.year, asked_on.month, asked_on.day)
    if asked_on is not None and not isinstance(asked_on, (str, datetime)):
        raise DataError(f"asked_on must be a datetime, a date or a date string, not {type(asked_on).__name__}")
    return parse_date(asked_on, "asked_on")
