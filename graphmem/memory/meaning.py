"""The meaning confidence: does what was found say what was asked, judged by an embedding and by kinds?

``ask`` abstains by its confidence. The shipped one is word coverage (:mod:`graphmem.answer.sure`):
how much of the question's idf weight the first turn found holds. Between a person and an
assistant that fails on LongMemEval's ``_abs`` questions, which change one detail of an answerable
one (football for the baseball the user played, cows for the goats kept): nearly every other word
is still covered, so coverage barely tells them from answerable questions (docs/longmemeval.md).

``Memory(confidence="meaning")`` reads two other signals over the turns found:

- the best cosine of multilingual-e5-small between the question and any sentence of the first
  ``MemoryOptions.meaning_turns`` turns (:class:`graphmem.search.dense.Turns`, each sentence read
  as ``"speaker: sentence"``): whether something found *means* what was asked;
- the cohyponym swap test (:mod:`graphmem.text.kinds`, WordNet): a question that asks of a thing of
  the same kind as one the first turn names, and not of that thing, gets confidence 0.0, below
  any cosine e5 gives a question and a sentence (e5's cosines sit in a high band:
  docs/longmemeval.md).

It applies where the shape is a person and an assistant: when an assistant speaks in the
conversation of the first turn found (:func:`graphmem.index.shape.is_assistant`); in two-party dialogue
the coverage stays, because there the cosine tells answerable from adversarial questions apart
less well than coverage does (``python bench/cohyponyms_locomo.py --dense``: docs/longmemeval.md).
An adversarial LoCoMo question asks one speaker about what the other did, which a cosine of
"speaker: sentence" barely sees.

Its cost: the turns read are embedded at each ``ask`` (ten turns' sentences through e5, dear on
LongMemEval, whose turns are long; it grows with the turns' length, not with the memory), and the
optional ``dense`` extra and WordNet's database (``scripts/wordnet-local``) must be installed. The
figures and the floor's choice: docs/longmemeval.md.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from graphmem.domain import Turn
from graphmem.errors import MisuseError
from graphmem.index.live_dense import encoder, need_dense
from graphmem.index.options import MemoryOptions
from graphmem.search.dense import Turns
from graphmem.text.zh import has_cjk

CONFIDENCES = ("coverage", "meaning", "calibrated", "calibrated+e5")
"""What ``ask`` abstains by: word coverage of the first turn found (default); between a person
and an assistant, the meaning confidence of this module; or the calibrated probability
(:mod:`graphmem.memory.calibrated`), with e5's cosines over the turns found among its signals
(``calibrated+e5``: the ``dense`` extra, about 1 s of CPU an ask on long turns)."""

MEANING_FLOOR = 0.845
"""The cosine below which a ``confidence="meaning"`` answer abstains. Chosen on LongMemEval's
development half, the only development data of this shape (LoCoMo's two-party dialogue keeps the
coverage), at the point its issue names: on a grid of 0.005, the lowest floor that keeps the most
``_abs`` questions quiet while at most 15% of answerable ones are (read from the per-question
confidences ``graphmem longmemeval --confidence meaning --out FILE`` writes, which no floor changes:
docs/longmemeval.md).
No held-out data was left, so the quiet rates at this floor are in-sample; the AUC is not floor-bound."""


def floor_text(floor: float) -> str:
    """A floor as reports print it: two decimals (0.30), three where it has them (0.845)."""
    return f"{floor:.2f}" if round(floor, 2) == floor else f"{floor:.3f}"


class Meaning:
    """The meaning confidence over one encoder and, unless turned off, WordNet's kinds."""

    def __init__(self, options: MemoryOptions):
        settings = options.confidence
        if settings.meaning_turns < 1:
            raise MisuseError(f"meaning_turns must be at least 1, not {settings.meaning_turns}")
        need_dense()
        self.turns = settings.meaning_turns
        self.encoder = encoder(options.index.dense_engine)  # the index's embedding engine
        self.kinds = _kinds() if settings.meaning_kinds else None

    def swap(self, question: str, found: Sequence[Turn]) -> str | None:
        """The question's thing of the same kind as one the first turn names (``"asked/told"``), if
        any. A question in Chinese is not tested: its English gloss lists every sense of each word,
        which would flag kinds the question never asked of."""
        if self.kinds is None or not found or has_cjk(question):
            return None
        with _WORDNET:
            return self.kinds.swapped_in(question, found[0].text)

    def __call__(self, question: str, found: Sequence[Turn]) -> float:
        """The best cosine between ``question`` (as asked: e5 is multilingual) and a sentence of the
        first turns ``found``; 0.0 when the question swaps in a thing of another kind, or when nothing
        was found."""
        if not found or self.swap(question, found) is not None:
            return 0.0
        read = found[: self.turns]
        with _ENCODER:
            return float(Turns(self.encoder, [(r.speaker, r.text) for r in read]).scores([question])[0].max())


_WORDNET = threading.Lock()
"""NLTK's WordNet reader seeks and reads shared file handles: one thread at a time, across memories."""

_ENCODER = threading.Lock()
"""One embedding at a time through the process's shared encoder, whichever memory asks."""


@lru_cache(maxsize=1)
def _kinds() -> Any:
    """The cohyponym test over WordNet (:class:`graphmem.text.kinds.Cohyponyms`), one per process:
    its caches of senses and hypernyms serve every memory (LongMemEval builds one per question)."""
    from graphmem.text.kinds import Cohyponyms, wordnet  # lazy: scikit-learn's stop words and nltk, for this confidence only

    return Cohyponyms(wordnet())


def meaning(confidence: str, options: MemoryOptions) -> Meaning | None:
    """The meaning confidence a memory asked for, or None (coverage, calibrated); an unknown name is refused."""
    if confidence not in CONFIDENCES:
        raise MisuseError(f"unknown confidence {confidence!r}: choose {' or '.join(map(repr, CONFIDENCES))}")
    return Meaning(options) if confidence == "meaning" else None
