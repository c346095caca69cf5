"""docs/langgraph.md's example, run as written: a LangGraph graph with a scripted chat model (no LLM)
remembers in one thread and recalls, through the graphmem store, in another. What is checked beyond
its printed reply (which a scripted model would print anyway): what the model was given."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from tests.conftest import IN_CI

if not IN_CI:  # the extra is installed in CI (.ci/run), where its absence fails the import below
    pytest.importorskip("langgraph.graph")

from langchain_core.callbacks import BaseCallbackHandler  # noqa: E402

DOC = Path(__file__).resolve().parents[3] / "docs" / "langgraph.md"


class Prompts(BaseCallbackHandler):
    """Every prompt a chat model is given, as text."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def on_chat_model_start(self, serialized, messages, **kwargs) -> None:
        self.seen += ["\n".join(str(m.content) for m in batch) for batch in messages]


def _example() -> dict:
    block = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)
    scope: dict = {"__name__": "langgraph_example"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(DOC), "exec"), scope)  # the documented example, as a reader would run it
    scope["printed"] = printed.getvalue()
    return scope


def test_the_documented_graph_remembers_across_threads_through_the_store():
    ex = _example()
    assert ex["printed"].strip() == "Your dog is called Rex."
    graph, store, memory = ex["graph"], ex["store"], ex["memory"]
    friday = graph.get_state(ex["later"]).values["messages"]
    assert len(friday) == 2 and "Rex" not in friday[0].content  # the other thread's messages were not carried
    (kept,) = store.search(("ann", "memories"))
    assert kept.value == {"text": "my dog is called Rex."}
    assert memory.search("dog", user="ann")  # a turn of Ann's in graphmem, found by graphmem's search

    prompts = Prompts()
    again = {"configurable": {"thread_id": "sunday", "user_id": "ann"}, "callbacks": [prompts]}
    graph.invoke({"messages": [("user", "Do you know my dog's name?")]}, again)
    bob = {"configurable": {"thread_id": "sunday-bob", "user_id": "bob"}, "callbacks": [prompts]}
    graph.invoke({"messages": [("user", "Do you know my dog's name?")]}, bob)
    ann_prompt, bob_prompt = prompts.seen
    assert "- my dog is called Rex." in ann_prompt  # recalled through the store, in a thread that never said it
    assert "Rex" not in bob_prompt  # another user's memory is never recalled
