"""bench/facts_precision.py: the labels file is read strictly, and one seed draws one sample."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
spec = importlib.util.spec_from_file_location("facts_precision", REPO / "bench" / "facts_precision.py")
fp = importlib.util.module_from_spec(spec)
sys.modules["facts_precision"] = fp
spec.loader.exec_module(fp)

ROW = {"turn_id": "c/D1:1", "subject": "Ann", "predicate": "live", "object": "in Paris", "ok": True, "why": ""}


def test_labels_are_keyed_by_fact_and_subject_case_folded(tmp_path):
    path = tmp_path / "l.jsonl"
    path.write_text(json.dumps(ROW) + "\n")
    got = fp.labels(path)
    assert got[fp.key(dict(ROW, subject="ann"))]["ok"] is True


@pytest.mark.parametrize("bad", [dict(ROW, ok=None), {k: v for k, v in ROW.items() if k != "object"}])
def test_a_label_without_a_verdict_or_a_field_is_refused_naming_the_line(tmp_path, bad):
    path = tmp_path / "l.jsonl"
    path.write_text(json.dumps(ROW) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(ValueError, match=r"l.jsonl:2"):
        fp.labels(path)


def test_one_seed_one_sample():
    rows = [dict(ROW, object=str(i)) for i in range(50)]
    assert fp.sample(rows, 10, 3) == fp.sample(rows, 10, 3)
    assert fp.sample(rows, 10, 3) != fp.sample(rows, 10, 4)
    assert len(fp.sample(rows, 500, 0)) == 50


def test_the_committed_labels_load():
    assert len(fp.labels(fp.LABELS)) >= 200
