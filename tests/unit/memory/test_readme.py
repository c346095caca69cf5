"""The README's memory example runs as printed, and docs/memory.md quotes the same one."""

import re
from pathlib import Path

import pytest

from tests.conftest import REPO

README = REPO / "README.md"
MEMORY_DOC = REPO / "docs" / "memory.md"


def _example(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    return re.search(re.escape(heading) + r"\n\n```python\n(.*?)```", text, re.S).group(1)


@pytest.mark.parametrize(
    ("path", "heading"), [(README, "## The Python API"), (MEMORY_DOC, "## graphmem as a memory")]
)
def test_readme_memory_example_runs_and_prints_what_it_says(path: Path, heading: str):
    block = _example(path, heading)
    lines = [line.split("  #")[0].rstrip() for line in block.splitlines()]
    namespace: dict = {}
    exec("\n".join(line for line in lines if not line.startswith(("mem.search", "answer.reply", "mem.ask"))), namespace)
    mem = namespace["mem"]
    assert mem.search("Who went hiking in the Alps?", k=1) == ["d2"]
    answer = namespace["answer"]
    assert (answer.reply, answer.cited) == ("7 May 2023", ("d1", "d2"))
    hiking = mem.ask("Where did Bob go hiking?")
    assert (hiking.reply, hiking.sentence, hiking.source) == ("in the Alps", "I went hiking in the Alps last week.", "d2")
    assert mem.ask("What is the capital of Mongolia?").reply == "No information available"
    assert mem.search("What happened two days ago?", asked_on="2023-05-09") == ["d1"]
    assert mem.search("What happened two days ago?") == []  # "two days ago" of no moment names no day


def test_docs_quote_the_readme_example_byte_for_byte():
    assert _example(MEMORY_DOC, "## graphmem as a memory") == _example(README, "## The Python API")
