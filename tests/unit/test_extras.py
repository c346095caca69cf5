"""A missing optional extra is named the way the README installs it: every message says both
``pip install 'graphmem[X]'`` and, for a checkout, ``pip install -e '.[X]'`` (graphmem.errors.install),
and names an extra pyproject.toml declares."""

from __future__ import annotations

import ast
import re
import sys
import tomllib

import pytest

from graphmem.errors import GraphmemError, install
from tests.conftest import REPO

EXTRAS = set(tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"])


def test_install_says_both_forms():
    assert install("dense") == "pip install 'graphmem[dense]' (from a checkout: pip install -e '.[dense]')"


def _strings(tree: ast.AST) -> list[ast.Constant]:
    """The string constants of a module that are not docstrings."""
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_message_spells_an_install_command_of_its_own():
    spelled = []
    for path in sorted((REPO / "graphmem").rglob("*.py")):
        if path.name == "errors.py" and path.parent.name == "graphmem":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        spelled += [f"{path.relative_to(REPO)}:{n.lineno}" for n in _strings(tree) if "pip install" in n.value]
    assert not spelled, "say an extra through graphmem.errors.install: " + ", ".join(spelled)


def test_every_extra_a_message_names_is_declared():
    named = set()
    for path in sorted((REPO / "graphmem").rglob("*.py")):
        named |= set(re.findall(r"\binstall\(['\"](\w+)['\"]\)", path.read_text(encoding="utf-8")))
    assert named and named <= EXTRAS, named - EXTRAS


def test_the_readme_and_the_scripts_install_extras_from_the_checkout():
    for path in (REPO / "README.md", REPO / "scripts" / "model-local"):
        text = path.read_text(encoding="utf-8")
        for extra in re.findall(r"pip install (?:-e )?'\.\[(\w+)\]'", text):
            assert extra in EXTRAS
        assert not re.search(r"pip install '\.\[", text), f"{path.name}: write pip install -e '.[X]'"
        assert not re.search(r"graphmem\[\w+\]'(?! \(from a checkout)", text), f"{path.name}: say both forms"


def test_a_missing_extra_says_both_forms(monkeypatch):
    from graphmem.index import live_dense
    from graphmem.bench.longmemeval import baseline

    monkeypatch.setattr(live_dense.embedding, "available", lambda: False)
    with pytest.raises(GraphmemError, match=re.escape(install("dense"))):
        live_dense.need_dense()
    monkeypatch.setitem(sys.modules, "bm25s", None)  # import bm25s now raises ImportError
    with pytest.raises(GraphmemError, match=re.escape(install("longmemeval"))):
        baseline._bm25s()


@pytest.mark.parametrize("module,framework,extra", [("graphmem.integrations.langgraph", "langgraph.store.base", "langgraph"),
                                                    ("graphmem.integrations.langchain", "langchain_core.callbacks", "langchain")])
def test_an_integration_without_its_extra_says_how_to_install_it(monkeypatch, module, framework, extra):
    import importlib

    monkeypatch.setitem(sys.modules, framework, None)  # as if the framework were not installed
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(GraphmemError, match=re.escape(install(extra))):
        importlib.import_module(module)
