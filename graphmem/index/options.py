"""How the memory reads, ranks, replies, trusts and updates, in four frozen settings, one per concern.

Every choice the memory makes was measured against the alternative on LoCoMo or LongMemEval
(``bench/memory_locomo.py --compare VARIANT``, ``bench/longmemeval_compare.py``); each alternative is
these settings with one field changed. The defaults are what ships: ``Memory()`` is
``Memory(options=MemoryOptions())``. The settings are explicit parameters rather than module
constants so that a variant is built, not patched in, and two memories with different settings can
live side by side.

Why four: the settings used to be one flat object of 29 fields that set the index, the reader, the
confidence and the update rules at once, so every part of the memory was handed all of them. Now
each part reads its own: the stores' index :class:`IndexSettings` (``options.index``), ``ask``'s
reply :class:`ReplySettings` (``options.reply``), its confidence :class:`ConfidenceSettings`
(``options.confidence``), and the knowledge updates' rules :class:`UpdateSettings`
(``options.rules``). :class:`MemoryOptions` composes them, and still takes (and reads back) the flat
names programs already write, ``MemoryOptions(updates=False, k1=0.9)`` (:data:`FLAT` routes each to
its concern). A benchmark's variants are such options, built by the benchmark and passed in;
experiments that replace a step with other code (another ranker, a rerank) are the research side's
strategies, never fields here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from graphmem.index.bm25f import B, CONTEXT_WEIGHT, K1
from graphmem.index.conversations import CONVERSATION_REST, CONVERSATION_TURNS
from graphmem.text.dates import ANSWER_TYPES

__all__ = ["FLAT", "READERS", "ConfidenceSettings", "IndexSettings", "MemoryOptions", "ReplySettings",
           "UpdateSettings"]

READERS = ("readable", "extractive")
"""Who reads ``ask``'s reply (``ReplySettings.reader``)."""


@dataclass(frozen=True)
class IndexSettings:
    """How a store's index reads and ranks turns (defaults: what ships). Two memories whose index
    settings differ read the same turns differently: a memory file keeps the ones it was read with."""

    unaddressed: bool = True
    """The lexical index reads each turn (and the turn it replies to) without its vocatives
    (:func:`graphmem.claims.replies.unaddressed`); False: as written."""

    speaker: bool = True
    """A turn is indexed as ``"Speaker: utterance"``; False: the utterance alone."""

    context: bool = True
    """The BM25 index reads the turn a turn replies to as a weaker second field."""

    context_weight: float = CONTEXT_WEIGHT
    """What a term of the turn replied to counts against one of the turn itself; the
    embedding's score of that turn is mixed in at the same weight."""

    context_reach: int = 2
    """How many turns back the turn a numbered turn replies to is looked for (1: only the turn
    right before it; 2: when that one was never ingested, the one before it, in two-party
    dialogue the speaker's own previous turn). See ``_replied_to``. Chosen on LoCoMo pools
    shaped like bench6's, where most turns lack the turn before them: a reach of two finds more
    evidence first than one, and three adds nothing (``python bench/memory_locomo.py --pools
    --compare context-reach-1``; docs/memory.md, "Pools shaped like bench6's")."""

    answer_types: tuple[str, ...] = tuple(ANSWER_TYPES)
    """The answer types (:data:`graphmem.text.dates.ANSWER_TYPES`) a question asking for one
    matches turns by: when, how long."""

    spans: bool = True
    """A date a question names also matches the turns that speak of that day, not only
    those said on it (:func:`graphmem.text.dates.days_spoken_of`)."""

    k1: float = K1
    """BM25's term-frequency saturation (:data:`graphmem.index.bm25f.K1`)."""

    b: float = B
    """BM25's length normalisation (:data:`graphmem.index.bm25f.B`)."""

    dense_context: bool = True
    """With ``dense=True``, mix each turn's embedding score with that of the turn it replies
    to (see ``_dense_scores``)."""

    dense_weight: float = 0.5
    """The embedding's share of the fused score (:func:`graphmem.search.dense.fuse`)."""

    dense_engine: str | None = None
    """The engine that runs the embedding model (:data:`graphmem.search.dense.ENGINES`);
    None: the default engine's shared encoder."""

    shape: bool = True
    """Tell person-assistant dialogue from two-party dialogue by who speaks
    (:mod:`graphmem.index.shape`): in an exchange with an assistant a turn does not read the
    turn it replies to as its second field. False: every dialogue is read as two people's."""

    asker: bool = True
    """In an exchange with an assistant (the shape told), a first-person question ("What book am
    I reading?") asks about the person: among the turns it matches, the person's own count one
    more term (:mod:`graphmem.index.askers`). False: every speaker's turns alike."""

    batch: int = 64
    """An ingest of this many records or more is indexed column by column
    (``LiveIndex._add_batch``), a smaller one record by record: the same index either way, and
    each is the cheaper on its side of this size, where the two break even on LoCoMo's turns
    (``python bench/ingest_batch.py``; docs/memory.md, "What it costs as it grows")."""

    conversation_turns: int = CONVERSATION_TURNS
    """``search_conversations``: how many of a conversation's best turns its score counts
    (:mod:`graphmem.index.conversations`); 1: each conversation at its best turn."""

    conversation_rest: float = CONVERSATION_REST
    """``search_conversations``: the weight of each counted turn after a conversation's best."""

    @property
    def weighs_askers(self) -> bool:
        """Whether the asker's turns count one more term: the rule, and the shape it needs told."""
        return self.shape and self.asker


@dataclass(frozen=True)
class ReplySettings:
    """Who reads ``ask``'s reply off the turns found, and how."""

    reader: str = "readable"
    """Who reads ``ask``'s reply off the turns found: ``readable`` (:mod:`graphmem.answer.readable`:
    one phrase of the first turn, as written, with the sentence it came from) or ``extractive``
    (the bench's reader, :mod:`graphmem.answer.reader`: a sentence's rarest words, which LoCoMo's
    token F1 rewards; docs/memory.md, "Replies a person can read")."""

    phrase: str = "assistant"
    """With ``reader="extractive"``: when it quotes one phrase of a sentence instead of its rarest
    words (:func:`graphmem.index.shape.reader_settings`): ``assistant`` (when the turns found
    include an assistant's), ``always`` or ``never``."""


@dataclass(frozen=True)
class ConfidenceSettings:
    """How ``ask``'s confidence, by which it abstains, is read."""

    sure_unseen: bool = True
    """The confidence ``ask`` abstains by counts the question's terms no turn holds, at the
    largest weight, as not covered (:func:`graphmem.answer.sure.coverage`); False: they are
    left out, as the bench's Sure leaves them. Measured on both development sets (ROC AUC of
    the confidence, answerable against unanswerable questions; see docs/longmemeval.md)."""

    meaning_turns: int = 10
    """With ``confidence="meaning"``: how many of the turns found the embedding reads
    (:mod:`graphmem.memory.meaning`). On LongMemEval's development half the best cosine over the
    first ten separates answerable from ``_abs`` questions a little better than over the first
    three, within one question (``python bench/longmemeval_confidence.py --dense``, dense10
    against dense3: docs/longmemeval.md)."""

    meaning_kinds: bool = True
    """With ``confidence="meaning"``: a question that swaps in a thing of the same kind as one the
    first turn names gets confidence 0.0 (:mod:`graphmem.text.kinds`; needs WordNet's database).
    False: the cosine alone."""


@dataclass(frozen=True)
class UpdateSettings:
    """The knowledge updates' rules (:mod:`graphmem.memory.updates`): what holds as of the moment asked
    comes first."""

    on: bool = True
    """``search`` and ``ask`` put what holds as of the moment asked first: a later saying of what
    the question asks above the earlier ones it replaced (:mod:`graphmem.memory.updates`);
    False: the turns as the store ranks them."""
    window: int = 5
    """How many of the first turns found the topic rule reorders (the search asks the store for at
    least this many, and cuts to k after). Within the first five a reorder never changes which
    turns a search of five returns, only their order: LoCoMo's evidence hit@5 stays the store's
    (docs/memory.md, "What holds now")."""
    cover: float = 0.6
    """How much of the question a later turn of the same speaker must cover, against the earlier
    turn's coverage, to replace it (:func:`graphmem.memory.updates.prefer_current`)."""
    floor: float = 0.5
    """And how much of the question it must cover at least: a later turn that shares a word or two
    with the question is not a new saying of what it asks."""
    depth: int = 10
    """How many of the first turns found the slot's value rule reads, for a question asking a kind
    of value (a count, a time, a weekday, a duration: :mod:`graphmem.memory.slots`); any other
    question reads ``window``. Chosen on LongMemEval's development half (in-sample):
    docs/lifecycle.md."""
    value_cover: float = 0.5
    """The slot's value rule: how much of the question a later turn stating the asked kind of value
    must cover, against the earlier turn's coverage, to replace it (in-sample, as ``depth``)."""
    value_floor: float = 0.4
    """And how much of the question it must cover at least (in-sample, as ``depth``)."""


CONCERNS = {"index": IndexSettings, "reply": ReplySettings, "confidence": ConfidenceSettings, "rules": UpdateSettings}
"""Each concern's name in :class:`MemoryOptions` and its settings."""

FLAT: dict[str, tuple[str, str]] = {
    **{f.name: ("index", f.name) for f in fields(IndexSettings)},
    **{f.name: ("reply", f.name) for f in fields(ReplySettings)},
    **{f.name: ("confidence", f.name) for f in fields(ConfidenceSettings)},
    **{("updates" if f.name == "on" else f"updates_{f.name}"): ("rules", f.name) for f in fields(UpdateSettings)},
}
"""The flat name of every setting (``MemoryOptions(k1=0.9)``, ``options.updates_window``): its
concern and its name there. The names are those of the one flat object the settings were, so a
program written against it, and a memory file's record of them (:meth:`MemoryOptions.flat`), stay."""


@dataclass(frozen=True, init=False)
class MemoryOptions:
    """Every setting of a memory: the four concerns' settings (defaults: what ships).

    ``MemoryOptions(index=IndexSettings(k1=0.9))`` gives a concern whole; ``MemoryOptions(k1=0.9)``
    changes one setting by its flat name (both at once: the flat names apply over the concerns
    given), and ``dataclasses.replace(options, k1=0.9)`` does the same from other options. An
    unknown name is a ``TypeError``, as a misspelt keyword is."""

    index: IndexSettings = field(default_factory=IndexSettings)
    reply: ReplySettings = field(default_factory=ReplySettings)
    confidence: ConfidenceSettings = field(default_factory=ConfidenceSettings)
    rules: UpdateSettings = field(default_factory=UpdateSettings)

    def __init__(self, index: IndexSettings | None = None, reply: ReplySettings | None = None,
                 confidence: ConfidenceSettings | None = None, rules: UpdateSettings | None = None,
                 **flat: Any):
        given = {"index": index, "reply": reply, "confidence": confidence, "rules": rules}
        changes: dict[str, dict[str, Any]] = {name: {} for name in CONCERNS}
        for name, value in flat.items():
            if name not in FLAT:
                raise TypeError(f"MemoryOptions() got an unexpected keyword argument {name!r}")
            concern, setting = FLAT[name]
            changes[concern][setting] = value
        for name, kind in CONCERNS.items():
            settings: Any = given[name] if given[name] is not None else kind()
            object.__setattr__(self, name, replace(settings, **changes[name]) if changes[name] else settings)

    def __getattr__(self, name: str) -> Any:
        """A setting read by its flat name (``options.updates``): its concern's."""
        if name in FLAT:
            concern, setting = FLAT[name]
            return getattr(object.__getattribute__(self, concern), setting)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def weighs_askers(self) -> bool:
        """:attr:`IndexSettings.weighs_askers`."""
        return self.index.weighs_askers

    def flat(self) -> dict[str, Any]:
        """Every setting by its flat name, in :data:`FLAT`'s order: what a saved memory records of
        the settings it was made under (:mod:`graphmem.store.sqlite.snapshot`)."""
        return {name: getattr(getattr(self, concern), setting) for name, (concern, setting) in FLAT.items()}
