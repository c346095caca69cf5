"""graphmem behind bench6's adapter protocol, and what bench6's ids say about a turn or a question.

:class:`Adapter` is constructible with no arguments and has a ``name``, ``ingest(records)``
with the pool rows and ``search(query, k)`` returning pool ids best first.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from graphmem.errors import GraphmemError
from graphmem.search import dense
from graphmem.text import zh as lingo


_CONVERSATION = re.compile(r"^(.+?)_session_\d+_turn_(\d+)$")


def conversation_of(pool_id: str) -> str:
    """bench6 pool ids are ``scene_K_session_S_turn_T``; the conversation is ``scene_K``."""
    m = _CONVERSATION.match(pool_id)
    return m.group(1) if m else "bench6"


_QUESTION = re.compile(r"^scene_(\d+)_q_(\d+)$")


def question_of(qid: str) -> tuple[int, int] | None:
    """bench6 qids are ``scene_K_q_N``, LoCoMo's question N of conversation K: (K, N), or
    None for another shape."""
    m = _QUESTION.match(qid)
    return (int(m.group(1)), int(m.group(2))) if m else None


def turn_of(pool_id: str) -> int | None:
    """The ``T`` of ``scene_K_session_S_turn_T``: the turn's number in its session."""
    m = _CONVERSATION.match(pool_id)
    return int(m.group(2)) if m else None


def _memory_class() -> type:
    """:class:`graphmem.memory.api.Memory`, imported on first use rather than with the adapter.

    The memory pulls in numpy, scipy and scikit-learn (about a second of CPU). bench6 counts
    that as loading: :meth:`Adapter.load` times this import apart, so that neither importing
    the adapter nor its ingest carries it, and ``graphmem bench6`` reports it as ``imports``.
    """
    from graphmem.memory.api import Memory  # lazy for bench6's timing: importing the memory is loading

    return Memory


def _research_memory(ranking: str, dense: bool, scope: bool) -> Any:
    """A research memory ranking by ``ranking`` (``bm25`` or ``tfidf``: :mod:`graphmem.bench.research`)."""
    from graphmem.bench.research.store import research_memory  # lazy, as the memory's: importing it is loading
    from graphmem.bench.research.strategies import Strategies  # likewise

    return research_memory(Strategies(ranking=ranking), dense=dense, scope=scope)


def _strip_speaker(text: str, speaker: str) -> str:
    """Pool text is ``"Speaker: utterance"``; the memory adds the speaker itself."""
    prefix = f"{speaker}:"
    return text[len(prefix):].lstrip() if text.startswith(prefix) else text


class Adapter:
    """graphmem under bench6's adapter protocol, built on :class:`graphmem.memory.api.Memory`.

    ``ingest`` hands the pool rows to ``Memory.ingest`` as id, speaker, text (without
    the ``"Speaker: "`` prefix the pool text carries: the memory indexes the speaker
    itself), date, conversation (``scene_K`` from the id) and turn number (``T``), so the
    memory knows that two pool turns of a session with a gap between them are not one
    the reply to the other (31 of the 38 that follow another pool turn of their session).
    ``search`` returns ``Memory.search``'s ids.

    ``scope="conversation"`` (default) is the memory's own person scope: a query that
    names a speaker the memory knows ranks the turns of the conversations that speaker
    takes part in first, then the rest. ``scope=None`` turns it off (to measure it).
    ``dense`` is passed on to ``Memory`` (default ``False``: lexical only; the embedding
    is an optional extra, and here costs about 20 times the CPU for a point of hit@1 in
    each language). ``ranking`` (``"bm25"`` or ``"tfidf"``), when given, asks the research memory
    (:mod:`graphmem.bench.research`) to rank so; ``None`` keeps the memory's own.
    """

    name = "graphmem"

    def __init__(self, dense: bool = False, scope: str | None = "conversation",
                 memory_factory: Callable[[], Any] | None = None, ranking: str | None = None):
        if scope not in (None, "conversation"):
            raise GraphmemError(f"unknown scope {scope!r}: choose conversation or None")
        self.dense = dense
        self.scope = scope
        self.ranking = ranking
        self._factory = memory_factory
        self.user: str | None = None
        """The partition the pool is ingested into and searched in (a database's run keeps to its own)."""
        self.memory: Any = None
        self._loaded: dict[str, float] = {}
        if dense:
            self.name = "graphmem+dense"
        if ranking is not None:
            self.name += f" [{ranking}]"
        if scope is None:
            self.name += " (unscoped)"

    def _new_memory(self) -> Any:
        if self._factory is not None:
            return self._factory()
        if self.ranking is not None:
            return _research_memory(self.ranking, self.dense, self.scope is not None)
        return _memory_class()(dense=self.dense, scope=self.scope is not None)

    def load(self) -> None:
        """Load what queries need before anything is timed: the memory's modules, the
        CC-CEDICT dictionary (zh extra) and, with ``dense``, the embedding model."""
        t = time.process_time()
        _memory_class()
        self._loaded["imports"] = time.process_time() - t
        if lingo.available():
            t = time.process_time()
            lingo.dictionary()
            self._loaded["dictionary"] = time.process_time() - t
        if self.dense:
            if dense.available():
                self._loaded[f"{dense.shared().engine} model"] = dense.shared().load_seconds

    def load_detail(self) -> dict[str, float]:
        return dict(self._loaded)

    def ingest(self, records: Sequence[Mapping[str, Any]]) -> None:
        rows = []
        for r in records:
            rid, speaker = str(r["id"]), str(r.get("speaker") or "unknown")
            conv = str(r.get("conversation") or conversation_of(rid))
            rows.append({"id": rid, "speaker": speaker, "text": _strip_speaker(str(r.get("text", "")), speaker),
                         "date": r.get("date") or None, "conversation": conv, "turn": turn_of(rid),
                         **({"user": self.user} if self.user is not None else {})})
        self.memory = self._new_memory()
        self.memory.ingest(rows)
        self.memory.build()  # index now, so that ingest time is ingest time

    def search(self, query: str, k: int) -> list[str]:
        if self.memory is None:
            return []
        return list(self.memory.search(query, k, user=self.user))
