"""graphmem's own record types: a turn, a session, a conversation, a claim, an answer.

Why one module at the bottom of the package: every layer passes these around (the loaders make
them, the claim reader and the index read them, the stores keep them, the memory returns them),
so none of those layers may own them. A dataset's loader (LoCoMo, LongMemEval, bench6, a JSON
Lines file) converts its rows into these; nothing downstream reads a dataset's own layout.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Union

__all__ = ["ABSTAIN", "DEFAULT_CONVERSATION", "Answer", "Claim", "Conversation", "Fact", "Hit", "Metadata", "Session",
           "Turn", "Value"]

Value = Union[str, int, float, bool]
"""What a turn's metadata holds under a key: a string, a number or a boolean (a flat map)."""


def _kind(value: Value) -> str:
    """A value's kind for equality: a boolean is no number here (``True`` is not ``1``), and a whole
    float is the integer it equals (``1.0`` is ``1``, as every store compares numbers)."""
    return "b" if isinstance(value, bool) else "s" if isinstance(value, str) else "n"


class Metadata(Mapping[str, Value]):
    """A turn's metadata: a flat, immutable map of names to strings, numbers and booleans, which a
    turn carries so that a program can tag it (source, channel, importance) and filter on it.

    Why its own type: a turn is frozen and hashable, so what it holds must be too; and two maps are
    equal only when their values are of the same kind (``{"x": True}`` is not ``{"x": 1}``)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Value] | None = None):
        self._items: dict[str, Value] = dict(items or {})

    def __getitem__(self, key: str) -> Value:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def _typed(self) -> frozenset[tuple[str, str, Value]]:
        return frozenset((k, _kind(v), v) for k, v in self._items.items())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return self._typed() == (other._typed() if isinstance(other, Metadata) else Metadata(other)._typed())

    def __hash__(self) -> int:
        return hash(self._typed())

    def __repr__(self) -> str:
        return f"Metadata({self._items!r})"


NO_METADATA = Metadata()

DEFAULT_CONVERSATION = "default"
"""The conversation of a turn that names none."""

ABSTAIN = "No information available"
"""The reply of an answer that abstains (the wording LoCoMo's adversarial answers use)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One utterance: who said what, when, in which conversation.

    ``id`` is unique within its user's part of a memory (a dataset whose ids repeat across
    conversations, as LoCoMo's ``D1:3`` do, is given ids scoped by its loader). ``number`` is the turn's number in
    its conversation when the source numbers its turns: a gap between two numbers says the turn
    before is missing. ``session`` is the sitting a dataset puts it in (None: the memory counts a
    sitting per calendar day); ``caption`` describes an image shared with it."""

    id: str
    speaker: str
    text: str
    date: datetime | None = None
    conversation: str = DEFAULT_CONVERSATION
    number: int | None = None
    session: int | None = None
    caption: str | None = None
    user: str | None = None
    """Whose memory it belongs to: a partition, never crossed (None: the turns that carry no user)."""
    metadata: Metadata = NO_METADATA
    """What the program that ingested it tagged it with (:class:`Metadata`; empty by default)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """A turn a search found and its score (``Memory.hits``): the turn's fields at hand, as a
    program shows them. ``score`` is the store's relevance (BM25F, or the fused score with
    ``dense=True``); None for a turn the knowledge-update rules brought in that the search itself
    did not find (:mod:`graphmem.memory.updates`)."""

    turn: Turn
    score: float | None

    @property
    def id(self) -> str:
        return self.turn.id

    @property
    def speaker(self) -> str:
        return self.turn.speaker

    @property
    def text(self) -> str:
        return self.turn.text

    @property
    def date(self) -> datetime | None:
        return self.turn.date

    @property
    def conversation(self) -> str:
        return self.turn.conversation

    @property
    def metadata(self) -> Metadata:
        return self.turn.metadata


@dataclass(frozen=True)
class Session:
    """A dated sitting of a conversation; its turns in the order they were said."""

    index: int
    date: datetime
    date_text: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Conversation:
    """A dialogue read whole: who speaks in it and its sessions in order (what claims are read from)."""

    id: str
    speakers: tuple[str, ...]
    sessions: tuple[Session, ...]
    turn_by_id: dict[str, Turn] = field(repr=False, compare=False, hash=False, default_factory=dict)

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]


@dataclass(frozen=True, slots=True)
class Claim:
    """One assertion read from one clause of a turn: whom it is about and what it says."""

    subject: str
    predicate: str
    object: str
    negated: bool
    sentence: str
    turn_id: str
    """The id of the turn it was read from."""
    date: datetime
    mentions: tuple[str, ...] = ()
    topic: str = ""
    """The grammatical subject when it is not the person ("the kids", "my painting")."""
    speaker: str = ""
    """The key of the person who said it."""


@dataclass(frozen=True, slots=True)
class Fact:
    """What the memory holds about a person, with when it held: a clause of a claim read from a turn,
    valid from the day it was said until a later statement ended it (``valid_to`` None while it holds)."""

    subject: str
    predicate: str
    object: str
    negated: bool
    turn_id: str
    said_on: datetime
    valid_from: datetime
    valid_to: datetime | None
    sentence: str
    attribute: str | None = None
    """What it says of the person (``residence``, ``occupation``, ``pet``, ``favourite:colour``,
    ``other:play``...: :mod:`graphmem.claims.attributes`); None for a fact made without one."""
    value: str = ""
    """The attribute's value, lower case ("porto", "pilot"): what a later value is compared with."""
    ended_by: str | None = None
    """The id of the turn whose statement ended it (None while it holds)."""


@dataclass(frozen=True)
class Answer:
    """What ``Memory.ask`` returns: the reply, the turns it cites (best first) and the confidence."""

    reply: str
    cited: tuple[str, ...]
    confidence: float
    measure: str = "coverage"
    """What ``confidence`` is: ``coverage`` (a share of the question's words, in [0, 1]), ``meaning``
    (a cosine; :mod:`graphmem.memory.meaning`) or ``calibrated`` (a probability:
    :mod:`graphmem.memory.calibrated`), each with its own floor; or ``fact``, a reply read off a fact
    that holds (:mod:`graphmem.memory.asked`), held against the coverage's floor."""
    sentence: str = ""
    """The sentence the reply was read from, as the turn says it ("" when the answer abstains, or
    when the bench's reader, which joins words of several sentences, read it)."""
    source: str = ""
    """The id of the cited turn that said ``sentence`` ("" with it)."""
    floor: float | None = None
    """The floor ``confidence`` was held against, when the answer's own (``calibrated``: each shape
    of exchange has its floor); None: the memory's floor for the ``measure``."""

    @property
    def quiet(self) -> bool:
        return self.reply == ABSTAIN
