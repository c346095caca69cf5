"""What the README's commands write in the checkout (``--out answers.json``, ``--memory memory.db``,
``--plot r.png``) is ignored by git, so following the README leaves ``git status`` clean."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.conftest import REPO


def _written() -> set[str]:
    """The files the README's commands name after --out, --memory or --plot, in the checkout
    (not under /tmp or a placeholder like FILE), with what SQLite keeps beside a memory file."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    names = set(re.findall(r"--(?:out|memory|plot) ([\w.+-]+\.\w+)\b", text))
    return names | {f"{n}-wal" for n in names if n.endswith(".db")} | {f"{n}-shm" for n in names if n.endswith(".db")}


def test_the_readmes_outputs_are_ignored():
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    written = _written()
    assert {"answers.json", "memory.db", "a.json", "r.png"} <= written
    found = subprocess.run(["git", "check-ignore", "--no-index", *sorted(written)], cwd=REPO,
                           capture_output=True, text=True, check=False).stdout.split()
    assert set(found) == written, written - set(found)
