"""How the memory reads and ranks turns, in one object of plain settings passed down to its store.

Every choice the memory's index makes was measured against the alternative on LoCoMo
(``bench/memory_locomo.py --compare VARIANT``); each alternative is these options with one
field changed. The defaults are what ships: ``Memory()`` is ``Memory(options=MemoryOptions())``.
The settings are explicit parameters rather than module constants so that a variant is
built, not patched in, and two memories with different settings can live side by side.
Experiments that replace a step with other code (another ranker, a rerank) are the research
memory's (:mod:`graphmem.bench.research.strategies`), never fields here.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.index.conversations import CONVERSATION_REST, CONVERSATION_TURNS
from graphmem.index.query import B, CONTEXT_WEIGHT, K1
from graphmem.text.dates import ANSWER_TYPES

READERS = ("readable", "extractive")
"""Who reads ``ask``'s reply (``MemoryOptions.reader``)."""


@dataclass(frozen=True)
class MemoryOptions:
    """How the memory indexes and ranks turns (defaults: what ships)."""

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
    """BM25's term-frequency saturation (:data:`graphmem.index.query.K1`)."""

    b: float = B
    """BM25's length normalisation (:data:`graphmem.index.query.B`)."""

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

    reader: str = "readable"
    """Who reads ``ask``'s reply off the turns found: ``readable`` (:mod:`graphmem.answer.readable`:
    one phrase of the first turn, as written, with the sentence it came from) or ``extractive``
    (the bench's reader, :mod:`graphmem.answer.reader`: a sentence's rarest words, which LoCoMo's
    token F1 rewards; docs/memory.md, "Replies a person can read")."""

    phrase: str = "assistant"
    """With ``reader="extractive"``: when it quotes one phrase of a sentence instead of its rarest
    words (:func:`graphmem.index.shape.reader_settings`): ``assistant`` (when the turns found
    include an assistant's), ``always`` or ``never``."""

    batch: int = 64
    """An ingest of this many records or more is indexed column by column
    (``LiveIndex._add_batch``), a smaller one record by record: the same index either way, and
    each is the cheaper on its side of this size, where the two break even on LoCoMo's turns
    (``python bench/ingest_batch.py``; docs/memory.md, "What it costs as it grows")."""

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

    conversation_turns: int = CONVERSATION_TURNS
    """``search_conversations``: how many of a conversation's best turns its score counts
    (:mod:`graphmem.index.conversations`); 1: each conversation at its best turn."""

    conversation_rest: float = CONVERSATION_REST
    """``search_conversations``: the weight of each counted turn after a conversation's best."""

    @property
    def weighs_askers(self) -> bool:
        """Whether the asker's turns count one more term: the rule, and the shape it needs told."""
        return self.shape and self.asker
    updates: bool = True
    """``search`` and ``ask`` put what holds as of the moment asked first: a later saying of what
    the question asks above the earlier ones it replaced (:mod:`graphmem.memory.updates`);
    False: the turns as the store ranks them."""
    updates_window: int = 5
    """How many of the first turns found the topic rule reorders (the search asks the store for at
    least this many, and cuts to k after). Within the first five a reorder never changes which
    turns a search of five returns, only their order: LoCoMo's evidence hit@5 stays the store's
    (docs/memory.md, "What holds now")."""
    updates_cover: float = 0.6
    """How much of the question a later turn of the same speaker must cover, against the earlier
    turn's coverage, to replace it (:func:`graphmem.memory.updates.prefer_current`)."""
    updates_floor: float = 0.5
    """And how much of the question it must cover at least: a later turn that shares a word or two
    with the question is not a new saying of what it asks."""
    updates_depth: int = 10
    """How many of the first turns found the slot's value rule reads, for a question asking a kind
    of value (a count, a time, a weekday, a duration: :mod:`graphmem.memory.slots`); any other
    question reads ``updates_window``. Chosen on LongMemEval's development half (in-sample):
    docs/lifecycle.md."""
    updates_value_cover: float = 0.5
    """The slot's value rule: how much of the question a later turn stating the asked kind of value
    must cover, against the earlier turn's coverage, to replace it (in-sample, as ``updates_depth``)."""
    updates_value_floor: float = 0.4
    """And how much of the question it must cover at least (in-sample, as ``updates_depth``)."""
