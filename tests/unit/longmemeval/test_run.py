"""A run's session figures: the memory ranks sessions by ``search_conversations`` (a session with
several matching turns before one with a single better turn), BM25 over turns by its best turn."""

from __future__ import annotations

from graphmem.bench.longmemeval.load import question
from graphmem.bench.longmemeval.run import Settings, run_question
from graphmem.index.options import MemoryOptions

from tests.unit.longmemeval.conftest import session

EVIDENCE = session(("user", "I want a kayak, a cheap one.", True),
                   ("assistant", "A touring kayak suits calm water and a lake.", False),
                   ("user", "Is a used kayak cheaper at the lake shop?", True))
LURE = session(("user", "Kayak on the lake: my brother's kayak on the lake.", False),
               ("assistant", "Paddling is good exercise.", False))
FILLER = session(("user", "Tell me a recipe for pancakes.", False), ("assistant", "Mix flour, eggs and milk.", False))
ROW = {"question_id": "k1", "question_type": "single-session-user", "question": "kayak on the lake",
       "answer": "a used one", "question_date": "2023/05/30 (Tue) 10:00",
       "haystack_session_ids": ["f1", "lure", "ev", "f1"],
       "haystack_dates": ["2023/05/20 (Sat) 02:21", "2023/05/21 (Sun) 09:00", "2023/05/22 (Mon) 09:00",
                          "2023/05/23 (Tue) 09:00"],
       "haystack_sessions": [FILLER, LURE, EVIDENCE, FILLER], "answer_session_ids": ["ev"]}


def test_the_memory_ranks_sessions_by_their_turns_together():
    q = question(ROW, "row 0")
    summed = run_question(q, Settings(options=MemoryOptions(updates=False), views=("all",)))
    assert summed.top["all/memory"][0] == "lure/0"  # the single best turn is the lure's (as the store ranks it)
    assert summed.retrieval["all/session/memory"]["recall_any@1"] == 1.0
    assert summed.retrieval["all/session/bm25"]["recall_any@1"] == 0.0  # BM25's turns: each session at its best
    at_best = run_question(q, Settings(options=MemoryOptions(conversation_turns=1, updates=False), views=("all",)))
    assert at_best.retrieval["all/session/memory"]["recall_any@1"] == 0.0
    assert at_best.retrieval["all/session/memory"]["recall_any@5"] == 1.0
