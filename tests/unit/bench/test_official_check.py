"""bench/official_check.py: the official LoCoMo scorer run over a real ``graphmem bench --out`` file.

The check is what backs the claim that graphmem's F1 and recall are the official ones, so it
must pass on real output (the one documented difference, empty context without evidence,
accounted for and not counted) and fail as soon as anything else differs. It runs as a
subprocess, as CI and the README run it, with this tree first on the path and the official
scorer found in the shared data (never copied into the repository).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from tests.conftest import REPO, shared_or_need

SCRIPT = REPO / "bench" / "official_check.py"
# A stand-in official scorer: the real one, but it sees the first question's reply altered.
# (Altering the file itself would not do: both scorers read the file, so they would agree.)
ALTERING = '''
import importlib.util

_spec = importlib.util.spec_from_file_location("real_official_evaluation", {real!r})
_real = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_real)


def eval_question_answering(qas, eval_key):
    qas[0][eval_key] = qas[0][eval_key] + " altered"
    return _real.eval_question_answering(qas, eval_key)
'''


@pytest.fixture(scope="module")
def official() -> Path:
    """The official scorer's copy in the shared data (``official/evaluation.py``)."""
    return shared_or_need("official", inside="evaluation.py") / "evaluation.py"


@pytest.fixture(scope="module")
def answers(locomo_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What ``graphmem bench --out`` writes with the default arms on the real LoCoMo."""
    out = tmp_path_factory.mktemp("official") / "answers.json"
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def run_check(*args: str, shared: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("LOCOMO_EVAL", None)
    if shared is not None:
        env["GRAPHMEM_SHARED"] = str(shared)
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)


def load_check() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("official_check", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_real_bench_output_agrees_but_for_the_documented_difference(official, answers):
    done = run_check(str(answers), shared=official.parent.parent)  # found through GRAPHMEM_SHARED
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"official scorer: {official.resolve()}" in done.stdout
    assert "DIFFERS" not in done.stdout
    # the five LoCoMo questions without evidence, to which the oracle returns nothing
    assert done.stdout.count("5 question(s) with an empty context and no evidence") == 1
    for sample, index in [("conv-26", 30), ("conv-26", 46), ("conv-50", 39), ("conv-50", 42), ("conv-50", 69)]:
        assert f"    sample {sample} question {index} (category " in done.stdout
    assert "4 arm(s); 5 recall(s) differ by the documented difference only" in done.stdout


def test_an_altered_prediction_is_a_difference(official, answers, tmp_path):
    altering = tmp_path / "evaluation.py"
    altering.write_text(ALTERING.format(real=str(official)))
    done = run_check(str(answers), "--official", str(altering))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "F1 DIFFERS" in done.stdout
    first = json.loads(answers.read_text())[0]
    assert f"1 question(s) differ, first 1:\n    sample {first['sample_id']} question 0 " in done.stdout
    assert done.stdout.rstrip().endswith("(flagged above)")


def test_only_the_exact_documented_pair_is_excused():
    check = load_check()
    q = types.SimpleNamespace(contexts={"oracle": ()}, evidence=())
    assert check.documented(q, "oracle", 1.0, 0.0)
    assert not check.documented(q, "oracle", 0.5, 0.0)  # the official scorer disagrees otherwise
    assert not check.documented(q, "oracle", 1.0, 1.0)
    assert not check.documented(types.SimpleNamespace(contexts={"oracle": ()}, evidence=("D1:3",)), "oracle", 1.0, 0.0)
    assert not check.documented(types.SimpleNamespace(contexts={"oracle": ("D1:3",)}, evidence=()), "oracle", 1.0, 0.0)


def test_the_scorer_is_found_by_option_then_variable_then_shared_data(tmp_path, monkeypatch):
    check = load_check()
    shared = tmp_path / "shared"
    (shared / "official").mkdir(parents=True)
    (shared / "official" / "evaluation.py").write_text("")
    monkeypatch.setenv("GRAPHMEM_SHARED", str(shared))
    monkeypatch.delenv("LOCOMO_EVAL", raising=False)
    assert check.find_official(None) == shared / "official" / "evaluation.py"
    monkeypatch.setenv("LOCOMO_EVAL", str(tmp_path / "env.py"))
    assert check.find_official(None) == tmp_path / "env.py"
    assert check.find_official(str(tmp_path / "given.py")) == tmp_path / "given.py"
    monkeypatch.delenv("LOCOMO_EVAL")
    monkeypatch.setenv("GRAPHMEM_SHARED", str(tmp_path / "nowhere"))
    assert check.find_official(None) is None


def test_no_scorer_is_a_usage_error(tmp_path):
    done = run_check(str(tmp_path / "answers.json"), shared=tmp_path / "nowhere")
    assert done.returncode == 2
    assert "no official scorer found" in done.stderr and "GRAPHMEM_SHARED" in done.stderr
