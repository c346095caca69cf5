"""The README's metadata, hits and update example runs as printed: each value its comments show."""

from graphmem import Memory
from tests.unit.memory.test_readme import README, _example


def test_the_metadata_example_prints_what_its_comments_say():
    block = _example(README, "### Metadata, hits, update")
    namespace: dict = {"Memory": Memory}
    exec(block, namespace)
    mem, hit = namespace["mem"], namespace["hit"]
    assert mem.search("Oslo flight") == ["e1", "c1"]  # after the update c1 no longer says "flight"
    assert (hit.id, hit.text, dict(hit.metadata)) == ("c1", "Oslo was cold and my flight to Oslo was late.",
                                                      {"source": "chat"})
    assert 0.46 <= hit.score < 0.47
    assert mem.get("e1").metadata["importance"] == 3 and mem.get("nowhere") is None
    now = mem.get("c1")
    assert (now.text, dict(now.metadata)) == ("Oslo was on time.", {"source": "chat", "fixed": True})
    fresh = Memory()  # the search line as printed, before the update
    fresh.ingest([{"id": "e1", "speaker": "Ann", "text": "My flight to Oslo leaves on Friday.",
                   "metadata": {"source": "email", "importance": 3}},
                  {"id": "c1", "speaker": "Ann", "text": "Oslo was cold and my flight to Oslo was late.",
                   "metadata": {"source": "chat"}}])
    assert (fresh.search("Oslo flight"), fresh.search("Oslo flight", where={"source": ["email", "sms"]})) == \
        (["c1", "e1"], ["e1"])
