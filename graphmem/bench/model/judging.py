"""The judge's prompt and how its verdict is read: one definition for every benchmark.

Why here, below the benchmarks: ``graphmem stats --judge`` grades LoCoMo replies and ``graphmem
longmemeval --judge`` grades LongMemEval's, and a J figure means the same thing in both only if
both ask the judge the same question and read its answer the same way. The prompt is this
repository's own: the question, the reference, the reply, and a one-word verdict, CORRECT or
WRONG, lenient on wording and length, strict on facts and dates. The first of those two words in
the judge's tidied reply is the verdict; a reply with neither is unreadable (counted wrong, in the
open). A reply that declines cannot be a correct answer and is graded wrong without asking.
"""

from __future__ import annotations

import re

__all__ = ["PROMPT", "declines", "judge_prompt", "verdict"]

PROMPT = (
    "You are grading a reply to a question about a conversation, against the reference answer.\n\n"
    "Question: {question}\n"
    "Reference answer: {reference}\n"
    "Reply: {reply}\n\n"
    "The reply is CORRECT if it states what the reference states (other words, more or fewer words, "
    "or extra detail that does not contradict it are fine; for a date, the same date, even written "
    "another way). It is WRONG if it states something else, misses the point, or declines to answer.\n"
    "Write one word: CORRECT or WRONG."
)

_VERDICT = re.compile(r"\b(correct|wrong|incorrect)\b", re.IGNORECASE)
_DECLINES = ("no information available", "not mentioned")  # the official LoCoMo scorer's abstention phrases


def judge_prompt(question: str, reference: str, reply: str) -> str:
    """The judge's prompt for one reply."""
    return PROMPT.format(question=question.strip(), reference=reference.strip(), reply=reply.strip())


def verdict(reply: str | None) -> bool | None:
    """True for CORRECT, False for WRONG (or INCORRECT), None when the judge wrote neither."""
    if reply is None:
        return None
    found = _VERDICT.search(reply)
    return None if found is None else found.group(1).lower() == "correct"


def declines(reply: str) -> bool:
    """Whether a reply declines to answer (empty, or an abstention phrase): graded without asking."""
    return not reply.strip() or any(p in reply.lower() for p in _DECLINES)
