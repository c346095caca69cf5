"""The model reader's one prompt, and the tidy step applied to what the model writes back.

Why one prompt for every column: a ``<memory>+model`` column must differ from another only in
the evidence its memory returned, and ``closed`` (the contamination control) only in having
none. So the answer-shape instructions (:data:`SHAPE`) are one string, shared verbatim by
:func:`evidence_prompt` and :func:`closed_prompt`, and written to match how LoCoMo's
references are worded: a few words in the conversation's own wording, lists by commas, dates
as in "8 May, 2023", and the abstention the official scorer credits, exactly
"No information available".

Why the tidy step strips only wrapping: the official F1 is computed on tokens, so a reply's
content is the model's, never ours to edit. What is stripped (:func:`tidy`) is what models put
around an answer: a ``</think>`` block, a leading "Answer:", wrapping quotes, a trailing full
stop. The HTTP client, retries and the disk cache are in :mod:`graphmem.bench.model.client`
and :mod:`graphmem.bench.model.cache`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from graphmem.answer.reader import ABSTAIN

__all__ = ["SHAPE", "Said", "when", "evidence_prompt", "closed_prompt", "tidy"]

SHAPE = (
    "Reply with a few words, not a sentence, in the conversation's own wording where possible. "
    "Separate the items of a list by commas. Write a date as in \"8 May, 2023\". "
    f"If you cannot tell, reply exactly: {ABSTAIN}"
)
"""The answer-shape instructions, the same in every prompt (with evidence and without)."""

_EVIDENCE = (
    "Here are turns from a conversation, each with the date it was said and its speaker "
    "(words such as \"yesterday\" or \"last week\" count from that date):\n\n"
    "{turns}\n\n"
    "Answer the question from these turns. {shape}\n\n"
    "Question: {question}\n"
    "Answer:"
)

_CLOSED = (
    "Answer a question about a conversation between two people. {shape}\n\n"
    "Question: {question}\n"
    "Answer:"
)


class Said(Protocol):
    """A cited turn as the prompt shows it: its date, who said it, and the words said
    (:class:`graphmem.data.locomo.Turn` is one)."""

    date: datetime
    speaker: str
    text: str


def when(date: datetime) -> str:
    """A date the way the prompt asks for dates: "8 May, 2023" (LoCoMo's own wording)."""
    return f"{date.day} {date:%B}, {date.year}"


def evidence_prompt(question: str, turns: Sequence[Said]) -> str:
    """The prompt for a ``<memory>+model`` column: each cited turn (date, speaker, words), then the question.

    Turns are shown in the order the memory ranked them, each once: the caller passes the
    turns behind a memory's cited ids, and the same turn cited twice (two pieces of it) is one line.
    """
    lines = []
    seen: set[tuple[datetime, str, str]] = set()
    for t in turns:
        key = (t.date, t.speaker, t.text)
        if key in seen:
            continue
        seen.add(key)
        lines.append(f"[{when(t.date)}] {t.speaker}: {' '.join(t.text.split())}")
    return _EVIDENCE.format(turns="\n".join(lines), shape=SHAPE, question=question.strip())


def closed_prompt(question: str) -> str:
    """The prompt for ``closed``: the same question and answer shape, the evidence withheld."""
    return _CLOSED.format(shape=SHAPE, question=question.strip())


_THINK_END = "</think>"
_ANSWER_LABEL = re.compile(r"^\s*answer\s*:\s*", re.IGNORECASE)
_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "`": "`", "\u00ab": "\u00bb"}


def tidy(raw: str) -> str:
    """Strip only the wrapping of a reply: a ``</think>`` block, a leading "Answer:", wrapping
    quotes and a trailing full stop (repeated until nothing changes, so '"Paris".' is Paris).

    An ellipsis is content, not a full stop, and is kept; so is anything inside the wrapping.
    """
    text = raw.rsplit(_THINK_END, 1)[1] if _THINK_END in raw else raw
    text = text.strip()
    while True:
        before = text
        text = _ANSWER_LABEL.sub("", text, count=1).strip()
        if len(text) >= 2 and _QUOTES.get(text[0]) == text[-1]:
            text = text[1:-1].strip()
        if text.endswith(".") and not text.endswith(".."):
            text = text[:-1].rstrip()
        if text == before:
            return text
