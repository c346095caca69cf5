"""The product's tests import no research code: a test of the index, a store or the memory that
needed the research side's bulk ranker to say what is right would make the product's correctness
depend on the benchmark's code. The product's ranking is held to :mod:`graphmem.index.bm25f`
(tests/unit/index/bm25f_reference.py); the research side is held to the product in its own tests."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import imports_of

TESTS = Path(__file__).resolve().parents[1]
RESEARCH = ("graphmem.bench.research",)
RESEARCH_TESTS = {"research", "bench", "bench6", "longmemeval", "arms"}
"""The research memory (the bulk index and its strategies), and the folders of tests/unit that test the research side."""



def _product_tests() -> list[Path]:
    unit = [p for p in (TESTS / "unit").rglob("*.py")
            if p.relative_to(TESTS / "unit").parts[0] not in RESEARCH_TESTS]
    return [*unit, *(TESTS / "conformance").rglob("*.py"), *(TESTS / "neo4j").rglob("*.py")]


def test_no_product_test_imports_the_research_side():
    tests = _product_tests()
    assert any(p.name == "test_postings.py" for p in tests)
    wrong = {str(p.relative_to(TESTS)): sorted(m for m in imports_of(p) if m.startswith(RESEARCH))
             for p in tests}
    assert not {p: m for p, m in wrong.items() if m}
