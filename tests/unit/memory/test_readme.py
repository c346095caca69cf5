"""The README's memory example runs as printed."""

import re

from tests.conftest import REPO

README = REPO / "README.md"


def test_readme_memory_example_runs_and_prints_what_it_says():
    text = README.read_text(encoding="utf-8")
    block = re.search(r"## graphmem as a memory\n\n```python\n(.*?)```", text, re.S).group(1)
    lines = [line.split("  #")[0].rstrip() for line in block.splitlines()]
    namespace: dict = {}
    exec("\n".join(line for line in lines if not line.startswith(("mem.search", "answer.reply", "mem.ask"))), namespace)
    mem = namespace["mem"]
    assert mem.search("Who went hiking in the Alps?", k=1) == ["d2"]
    answer = namespace["answer"]
    assert (answer.reply, answer.cited) == ("7 May 2023", ("d1", "d2"))
    assert mem.ask("What is the capital of Mongolia?").reply == "No information available"
