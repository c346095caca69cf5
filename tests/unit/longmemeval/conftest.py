"""A tiny hand-made LongMemEval file: two questions (one ``_abs``), the release's dates, a
session repeated with the same turns and one repeated with different turns."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest


def session(*turns: tuple[str, str, bool]) -> list[dict]:
    return [{"role": r, "content": c, "has_answer": h} for r, c, h in turns]


FILLER = session(("user", "Tell me a recipe for pancakes.", False), ("assistant", "Mix flour, eggs and milk.", False))
EVIDENCE = session(("user", "I just named my hamster Billy.", True), ("assistant", "Billy is a lovely name for a hamster!", False))
OTHER = session(("user", "My sister lives in Lisbon now.", True), ("assistant", "Lisbon is sunny.", True))


def tiny_rows() -> list[dict]:
    """A fresh copy each call, so a test may spoil it."""
    return copy.deepcopy([
        {"question_id": "q1", "question_type": "single-session-user", "question": "What is the name of my hamster?",
         "answer": "Billy", "question_date": "2023/05/30 (Tue) 10:00",
         "haystack_session_ids": ["f1", "e1", "f1", "f2", "f2"],
         "haystack_dates": ["2023/05/20 (Sat) 02:21", "2023/05/21 (Sun) 09:00", "2023/05/22 (Mon) 09:00",
                            "2023/05/23 (Tue) 09:00", "2023/05/24 (Wed) 09:00"],
         "haystack_sessions": [FILLER, EVIDENCE, FILLER, OTHER, FILLER],
         "answer_session_ids": ["e1"]},
        {"question_id": "q2_abs", "question_type": "single-session-user", "question": "What is the name of my cat?",
         "answer": "You did not mention a cat", "question_date": "2023/05/30 (Tue) 10:00",
         "haystack_session_ids": ["e1", "f1"], "haystack_dates": ["2023/05/21 (Sun) 09:00", "2023/05/20 (Sat) 02:21"],
         "haystack_sessions": [EVIDENCE, FILLER], "answer_session_ids": ["e1"]},
    ])


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json.gz"
    path.write_bytes(gzip.compress(json.dumps(tiny_rows()).encode()))
    return path
