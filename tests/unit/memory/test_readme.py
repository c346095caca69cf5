"""The README's memory examples run as printed, and docs/memory.md quotes the first one."""

import ast
import datetime
import io
import re
import tokenize
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


def _commented(block: str) -> list[tuple[ast.stmt, str | None]]:
    """Each top-level statement of ``block`` with the comment ending its last line, if any."""
    comments = {tok.start[0]: tok.string[1:].strip() for tok in tokenize.generate_tokens(io.StringIO(block).readline)
                if tok.type == tokenize.COMMENT}
    return [(node, comments.get(node.end_lineno)) for node in ast.parse(block).body]


def test_the_lifecycle_example_prints_what_each_comment_says():
    """Every expression of the users/facts/forget example equals the value its comment shows (the
    comment is evaluated), run top to bottom on one memory, so the README cannot drift from the API."""
    block = _example(README, "### Users, what holds, forgetting")
    namespace: dict = {"Memory": __import__("graphmem").Memory}
    checked = 0
    for node, comment in _commented(block):
        code = ast.unparse(node)
        if isinstance(node, ast.Expr) and comment:
            got = eval(code, namespace)
            assert got == eval(comment, {"datetime": datetime}), code
            checked += 1
        else:
            exec(code, namespace)
    assert checked >= 8  # the example shows its values: a line without one would check nothing
