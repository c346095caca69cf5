"""The shape of a dialogue, told from its data: two people talking, or a person and an assistant.

graphmem's index was shaped on LoCoMo, two friends talking: there a reply is found through the
turn it answers ("Super good! It was rich and creamy" through the ice cream asked about), so
each turn reads the turn it replies to as a weaker second field. Between a person and an
assistant the same field misleads: the assistant's reply restates the user's words, and with
the user's turn as its second field it outranks the user's own turn, the one that holds what
the user said about themselves (on LongMemEval the top turn was the one right after an evidence
turn far more often than for plain BM25: docs/longmemeval.md, "No reply field in an exchange
with an assistant").

The memory tells the shape from who speaks, not from a flag the user must know about: a speaker
called by an assistant's role name (``assistant``, as chat logs name it) makes that exchange a
person-assistant one. Speakers with people's names (LoCoMo's, bench6's) never match, so
two-party dialogue reads exactly as before. The rule and its figures on both development sets:
docs/longmemeval.md (``python bench/longmemeval_compare.py --compare shape-off``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from graphmem.answer.reader import ReaderSettings
from graphmem.domain import Turn

PHRASES = ("assistant", "always", "never")
"""When ``ask`` quotes a phrase (:mod:`graphmem.answer.phrase`) rather than a sentence's rarest
words: when the turns found include an assistant's, always, or never (``MemoryOptions.phrase``)."""

ASSISTANT_ROLES = frozenset({"assistant", "ai", "bot", "chatbot", "model", "system"})
"""Role names chat logs give the machine's side (OpenAI's and most chat formats say ``assistant``)."""


def is_assistant(speaker: str) -> bool:
    """Whether a speaker is named as an assistant's role, not as a person."""
    return speaker.strip().lower() in ASSISTANT_ROLES


def reads_reply(shape: bool, replier: Turn, replied: Turn) -> bool:
    """Whether ``replier`` reads ``replied`` (the turn it replies to) as its second field: always
    in two-party dialogue; never in an exchange with an assistant, when the shape is told."""
    return not shape or not (is_assistant(replier.speaker) or is_assistant(replied.speaker))


def reads_replies(shape: bool, records: Sequence[Turn], replied: Sequence[int | None], first: int = 0) -> list[bool]:
    """:func:`reads_reply` for every record from ``first`` on and the one it replies to
    (``replied[k]``, record ``first + k``'s; ``None``: none, read as False), judging each distinct
    speaker once rather than each pair of turns."""
    mine = records[first:] if first else records
    if shape:
        speakers = {r.speaker for r in mine} | {records[j].speaker for j in replied if j is not None and j < first}
        assistant = {who: is_assistant(who) for who in speakers}
    else:
        assistant = {}
    if not any(assistant.values()):
        return [j is not None for j in replied]
    return [j is not None and not (assistant[r.speaker] or assistant[records[j].speaker]) for r, j in zip(mine, replied)]


def shaped_fields(shape: bool, records: Sequence[Turn], fields: Sequence[str],
                  replied: Sequence[int | None]) -> list[str]:
    """Each record's second field, emptied where :func:`reads_reply` says it is not read."""
    return [f if j is None or reads_reply(shape, r, records[j]) else "" for r, f, j in zip(records, fields, replied)]


def reader_settings(phrase: str, settings: ReaderSettings, found: Sequence[Turn]) -> ReaderSettings:
    """The reader's settings for an answer read off ``found``: the phrase reader in an exchange
    with an assistant (or always, or never, as ``phrase`` says)."""
    if phrase not in PHRASES:
        raise ValueError(f"phrase must be one of {PHRASES}, not {phrase!r}")
    quote = phrase == "always" or (phrase == "assistant" and any(is_assistant(r.speaker) for r in found))
    return replace(settings, phrase=True) if quote and not settings.phrase else settings
