"""Forgetting in the live index leaves what an index that never read those turns holds: the asker's
marks (by turn id) and count, the assisted conversations, the turns of each answer type, and every
term's frequencies, document frequencies and lengths' total (the conformance suite compares
searches; these are the state under them, in chats with an assistant, where the marks move)."""

from __future__ import annotations

import random

from graphmem import Memory

WORDS = "book dune read night minutes weeks lake kayak dog rex paint city beach music guitar train".split()
WHEN = ["", "", " for two weeks", " last Friday", " 3 days ago"]
"""Tails that give a turn an answer type (how long, when), so forgetting moves those lists too."""


def _chats(seed: int = 3) -> list[dict]:
    """Chats of a person with an assistant (named by two roles) and two-party chats, some numbered."""
    rng = random.Random(seed)
    out = []
    for c in range(6):
        for t in range(24):
            who = ("I", "you")[t % 2] if c >= 4 else ("user", ("assistant", "Bot")[c % 2])[t % 2]
            out.append({"id": f"c{c}/{t}", "speaker": who, "conversation": f"c{c}", "date": f"2023-07-{1 + t // 8:02d}",
                        "text": f"My {' '.join(rng.choices(WORDS, k=rng.randint(2, 9)))}, thanks {('I', 'you')[t % 2]}"
                                f"{rng.choice(WHEN)}.",
                        **({"turn": t + 1} if c == 5 else {})})
    return out


def _state(mem: Memory) -> dict:
    """What the index holds of the turns it holds, by turn id: marks, frequencies and statistics."""
    ix = mem.store.index
    alive = [d for d in range(len(ix.records)) if d not in ix.dead]
    marks = ix.askers.mine.view()
    p = ix.postings
    tfs = {}
    for term, j in p.index.items():
        p._flush(j)
        held = {ix.records[int(d)].id: float(tf) for d, tf in zip(p._docs[j].view(), p._tfs[j].view()) if tf > 0}
        if held or p.df[j]:
            tfs[term] = (held, p.df[j])
    return {"marks": {ix.records[d].id: bool(marks[d]) for d in alive}, "count": ix.askers.count,
            "assisted": sorted(ix.askers._assisted), "tfs": tfs,
            "types": {kind: [ix.records[int(d)].id for d in held.view()] for kind, held in ix.types.items()}, "total": p.total, "held": p.n - p.gone,
            "lengths": {ix.records[d].id: float(p.length[d]) for d in alive}}


def test_a_forgetting_leaves_the_marks_and_statistics_of_an_index_that_never_read_them():
    records = _chats()
    mem = Memory()
    mem.ingest(records)
    steps = [["c0/0"], ["c0/1"], ["c1/5", "c2/7", "c4/3"],  # a person's turn, an assistant's, across conversations
             [f"c1/{t}" for t in range(1, 24, 2)],  # every assistant turn of c1: its people's turns no longer the asker's
             [f"c2/{t}" for t in range(0, 24, 2)],  # every person's turn of c2: the assistant stays
             [r["id"] for r in records if r["conversation"] == "c3"],  # a conversation whole
             ["c5/3", "c5/4", "c5/10", "c4/0"], [r["id"] for r in random.Random(1).sample(records, 30)]]
    kept = list(records)
    for ids in steps:
        mem.forget(ids=ids)
        kept = [r for r in kept if r["id"] not in ids]
        fresh = Memory()
        fresh.ingest(kept)
        assert _state(mem) == _state(fresh), ids
        for q in ("What book am I reading?", "my guitar and the lake", "kayak rex"):
            assert mem.search(q, k=5) == fresh.search(q, k=5), (ids, q)
