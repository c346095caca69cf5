"""graphmem.bench.locomo.stats on tiny hand-made predictions files."""

from __future__ import annotations

import json
import math
from itertools import product

import numpy as np
import pytest

from graphmem.bench.locomo import metric
from graphmem.bench.locomo import stats
from graphmem.errors import DataError, GraphmemError

RIGHT, WRONG = "Paris", "Tokyo"  # replies to a category 4 question whose answer is "Paris"


def q(category=4, answer="Paris", **arms):
    """A question; each keyword arm=reply or arm=(reply, confidence)."""
    row = {"question": "Where?", "evidence": ["D1:1"], "category": category}
    if answer is not None:
        row["answer"] = answer
    for arm, value in arms.items():
        reply, conf = value if isinstance(value, tuple) else (value, None)
        row[f"{arm}_prediction"] = reply
        row[f"{arm}_prediction_context"] = ["D1:1"]
        if conf is not None:
            row[f"{arm}_confidence"] = conf
    return row


def write(tmp_path, samples, name="preds.json"):
    path = tmp_path / name
    path.write_text(json.dumps(samples), encoding="utf-8")
    return path


def two_conversations(tmp_path):
    """Conversations A and B, arms x and y (scores 1 or 0 by exact reply).

    answerable: A: x-y = +1, 0 (sum +1, 2 questions); B: x-y = -1 (sum -1, 1 question)
    adversarial: A: x-y = +1 (1 question); B: x-y = 0 (1 question)
    """
    abstain, answer = metric.ABSTAIN, "Paris"
    return write(tmp_path, [
        {"sample_id": "A", "qa": [
            q(x=RIGHT, y=WRONG),
            q(x=RIGHT, y=RIGHT),
            q(category=5, answer=None, x=abstain, y=answer),
        ]},
        {"sample_id": "B", "qa": [
            q(x=WRONG, y=RIGHT),
            q(category=5, answer=None, x=abstain, y=abstain),
        ]},
    ])


# ---------------------------------------------------------------- loading


def test_load_discovers_arms_in_file_order_with_plus(tmp_path):
    path = write(tmp_path, [{"sample_id": "c1", "qa": [
        {"question": "q", "answer": 3, "evidence": [], "category": 2,
         "path+set_prediction": "3", "graph+edge_prediction": "x", "vector_prediction": "y",
         "path+set_prediction_context": [], "path+set_confidence": 0.5},
        {"question": "q", "evidence": [], "category": 5, "adversarial_answer": "z",
         "path+set_prediction": "", "graph+edge_prediction": "", "vector_prediction": ""},
    ]}])
    preds = stats.load_predictions(path)
    assert preds.arms == ("path+set", "graph+edge", "vector")
    assert preds.samples == ("c1",)
    assert preds.questions[0].answer == "3"  # an integer answer is read as str
    assert preds.questions[1].answer == ""  # adversarial without answer
    assert preds.questions[0].contexts == {"path+set": ()}
    assert preds.questions[0].confidences == {"path+set": 0.5}
    assert list(preds.scores("path+set")) == [1.0, 0.0]


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", r"not JSON \(line 1, column 2: "),
        ("{}", "expected a non-empty JSON list of samples"),
        ("[]", "expected a non-empty JSON list of samples"),
        ('[{"sample_id": "c1", "qa": [{"category": 4, "answer": "a"}]}]', "no '<arm>_prediction' keys"),
        ('[{"qa": [{"category": 4, "answer": "a", "x_prediction": "a"}]}]', r"sample 0: missing or invalid 'sample_id'"),
        ('[{"sample_id": "c1", "qa": 3}, {"sample_id": "c2", "qa": [{"category": 5, "x_prediction": ""}]}]',
         r"sample 0 \(c1\): missing or invalid 'qa'"),
        ('[{"sample_id": "c1", "qa": [{"category": 4, "x_prediction": "a"}]}]',
         r"sample 0 \(c1\) question 0: missing 'answer' \(category 4\)"),
        ('[{"sample_id": "c1", "qa": [{"category": 7, "answer": "a", "x_prediction": "a"}]}]',
         r"question 0: 'category' must be an integer 1-5"),
        ('[{"sample_id": "c1", "qa": [{"category": 4, "answer": "a", "x_prediction": "a"},'
         ' {"category": 4, "answer": "a", "y_prediction": "a"}]}]',
         r"question 0: missing 'y_prediction'"),
        ('[{"sample_id": "c1", "qa": [{"category": 4, "answer": "a", "x_prediction": 3}]}]',
         r"'x_prediction' must be a string"),
        ('[{"sample_id": "c1", "qa": [{"category": 4, "answer": "a", "x_prediction": "a", '
         '"x_prediction_context": "D1:1"}]}]', r"'x_prediction_context' must be a list"),
        ('[{"sample_id": "c1", "qa": [{"category": 4, "answer": "a", "x_prediction": "a", '
         '"x_confidence": "high"}]}]', r"'x_confidence' must be a finite number"),
        ('[{"sample_id": "c1", "qa": []}, {"sample_id": "c1", "qa": [{"category": 5, "x_prediction": ""}]}]',
         r"sample 1 \(c1\): duplicate sample_id"),
    ],
)
def test_load_bad_files(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataError, match=message) as info:
        stats.load_predictions(path)
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)


def test_load_missing_file(tmp_path):
    with pytest.raises(DataError, match="cannot read predictions file"):
        stats.load_predictions(tmp_path / "absent.json")


# ---------------------------------------------------------------- constant abstention


def test_constant_abstention(tmp_path):
    path = write(tmp_path, [{"sample_id": "c", "qa": [
        q(answer="Paris", x="a"),  # abstention scores 0
        q(answer="information about art", x="a"),  # 'inform' shared: p = r = 1/3, F1 1/3
        q(category=5, answer=None, x="a"),  # abstention scores 1
    ]}])
    got = stats.constant_abstention(stats.load_predictions(path))
    assert got["overall"] == pytest.approx(4 / 9)
    assert got["answerable"] == pytest.approx(1 / 6)
    assert got["adversarial"] == 1.0


# ---------------------------------------------------------------- AUC


def test_auc_hand_case(tmp_path):
    # answerable: good .9 .8, bad .1 .2, mixed .9 .2, flat .5 .5
    # adversarial: good .1 .2, bad .9 .8, mixed .5 .1, flat .5 .5
    path = write(tmp_path, [{"sample_id": "c", "qa": [
        q(good=("a", 0.9), bad=("a", 0.1), mixed=("a", 0.9), flat=("a", 0.5), none="a"),
        q(good=("a", 0.8), bad=("a", 0.2), mixed=("a", 0.2), flat=("a", 0.5), none="a"),
        q(category=5, good=("a", 0.1), bad=("a", 0.9), mixed=("a", 0.5), flat=("a", 0.5), none="a"),
        q(category=5, good=("a", 0.2), bad=("a", 0.8), mixed=("a", 0.1), flat=("a", 0.5), none="a"),
    ]}])
    got = stats.auc(stats.load_predictions(path))
    assert got["good"] == 1.0  # separates perfectly
    assert got["bad"] == 0.0  # separates perfectly, the wrong way round
    assert got["mixed"] == pytest.approx(0.75)  # (.9>.5, .9>.1, .2<.5, .2>.1): 3 of 4 pairs
    assert got["flat"] == 0.5  # ties count half
    assert got["none"] is None  # no confidence in the file
    assert list(got) == ["good", "bad", "mixed", "flat", "none"]


def test_auc_partial_confidence_is_an_error(tmp_path):
    path = write(tmp_path, [{"sample_id": "c", "qa": [q(x=("a", 0.5)), q(category=5, x="a")]}])
    with pytest.raises(DataError, match="question 1: missing 'x_confidence'"):
        stats.auc(stats.load_predictions(path))


def test_auc_one_class_is_none(tmp_path):
    path = write(tmp_path, [{"sample_id": "c", "qa": [q(x=("a", 0.5)), q(x=("a", 0.7))]}])
    assert stats.auc(stats.load_predictions(path)) == {"x": None}


# ---------------------------------------------------------------- bootstrap


def test_resample_enumeration_n10():
    counts, probs = stats.conversation_resamples(10)
    assert counts.shape == (92_378, 10) == (math.comb(19, 10), 10)
    assert (counts.sum(axis=1) == 10).all()
    assert len({tuple(row) for row in counts}) == 92_378  # every multiset once
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    # {0, 1, ..., 9} once each: 10! / 10**10; {0 ten times}: 1 / 10**10
    once = np.flatnonzero((counts == 1).all(axis=1))
    assert probs[once] == pytest.approx(math.factorial(10) / 10**10)
    assert probs[np.flatnonzero(counts[:, 0] == 10)] == pytest.approx(1e-10)


def test_resample_enumeration_n2():
    counts, probs = stats.conversation_resamples(2)
    table = {tuple(c): p for c, p in zip(counts.tolist(), probs)}
    assert table == {(2, 0): 0.25, (1, 1): 0.5, (0, 2): 0.25}


def test_resample_limit():
    with pytest.raises(GraphmemError, match="supports 1 to 12 conversations"):
        stats.conversation_resamples(13)


def test_bootstrap_two_conversations_by_hand(tmp_path):
    preds = stats.load_predictions(two_conversations(tmp_path))
    rows = stats.bootstrap_pairs(preds)
    assert [(r["a"], r["b"], r["half"]) for r in rows] == [("x", "y", "answerable"), ("x", "y", "adversarial")]
    answerable, adversarial = rows
    # answerable: diff (1 - 1) / 3 = 0
    #   {A,A} p 1/4: (2*1) / (2*2) = +0.5;  {A,B} p 1/2: (1 - 1) / 3 = 0;  {B,B} p 1/4: -2 / 2 = -1
    #   ascending -1 (cum .25), 0 (.75), +.5 (1.0): lo (cum >= .025) = -1, hi (cum >= .975) = +.5
    assert answerable["diff"] == pytest.approx(0.0)
    assert (answerable["lo"], answerable["hi"]) == (-1.0, 0.5)
    # adversarial: diff 1 / 2;  {A,A}: 2/2 = 1;  {A,B}: 1/2;  {B,B}: 0/2 = 0  ->  [0, 1]
    assert adversarial["diff"] == 0.5
    assert (adversarial["lo"], adversarial["hi"]) == (0.0, 1.0)


def test_bootstrap_interval_definition(tmp_path):
    preds = stats.load_predictions(two_conversations(tmp_path))
    # level .5: alpha .25. lo = smallest with cum >= .25 -> -1 (exactly .25 reaches it);
    # hi = smallest with cum >= .75 -> 0
    row = stats.bootstrap_pairs(preds, level=0.5)[0]
    assert (row["lo"], row["hi"]) == (-1.0, 0.0)
    # level .4: alpha .3. lo: cum >= .3 -> 0; hi: cum >= .7 -> 0
    row = stats.bootstrap_pairs(preds, level=0.4)[0]
    assert (row["lo"], row["hi"]) == (0.0, 0.0)
    with pytest.raises(GraphmemError, match="level"):
        stats.bootstrap_pairs(preds, level=1.0)


def brute_force(values_by_conv, sizes, level):
    """Every ordered draw of n conversations from n, each with probability n**-n."""
    n = len(sizes)
    dist = {}
    for draw in product(range(n), repeat=n):
        den = sum(sizes[i] for i in draw)
        if den == 0:
            continue
        value = sum(values_by_conv[i] for i in draw) / den
        dist[value] = dist.get(value, 0) + 1
    total = sum(dist.values())
    cum, lo, hi = 0, None, None
    alpha = (1 - level) / 2
    for value in sorted(dist):
        cum += dist[value] / total
        if lo is None and cum >= alpha - 1e-12:
            lo = value
        if hi is None and cum >= 1 - alpha - 1e-12:
            hi = value
    return lo, hi


def test_bootstrap_matches_brute_force_with_a_conversation_lacking_a_half(tmp_path):
    # Four conversations; D has no adversarial question, so resamples of D alone are dropped.
    rng = np.random.default_rng(3)
    samples, answerable, adversarial = [], [], []
    for name, n_ans, n_adv in (("A", 3, 2), ("B", 1, 1), ("C", 2, 3), ("D", 4, 0)):
        qa, ans, adv = [], [0, 0], [0, 0]
        for k in range(n_ans + n_adv):
            cat = 4 if k < n_ans else 5
            x, y = rng.integers(0, 2, size=2)
            reply = {1: RIGHT, 0: WRONG} if cat == 4 else {1: metric.ABSTAIN, 0: WRONG}
            qa.append(q(category=cat, x=reply[x], y=reply[y]))
            acc = ans if cat == 4 else adv
            acc[0] += int(x) - int(y)
            acc[1] += 1
        samples.append({"sample_id": name, "qa": qa})
        answerable.append(ans)
        adversarial.append(adv)
    preds = stats.load_predictions(write(tmp_path, samples))
    rows = stats.bootstrap_pairs(preds, level=0.8)
    for row, half in zip(rows, (answerable, adversarial)):
        lo, hi = brute_force([h[0] for h in half], [h[1] for h in half], level=0.8)
        assert row["lo"] == pytest.approx(lo) and row["hi"] == pytest.approx(hi)
        assert row["diff"] == pytest.approx(sum(h[0] for h in half) / sum(h[1] for h in half))


def test_bootstrap_pairs_order_and_empty_half(tmp_path):
    path = write(tmp_path, [{"sample_id": "c", "qa": [q(b=RIGHT, a=WRONG, c=RIGHT)]}])
    rows = stats.bootstrap_pairs(stats.load_predictions(path))
    assert [(r["a"], r["b"]) for r in rows] == [("b", "a")] * 2 + [("b", "c")] * 2 + [("a", "c")] * 2
    adversarial = [r for r in rows if r["half"] == "adversarial"]
    assert all(r["diff"] is None and r["lo"] is None and r["hi"] is None for r in adversarial)
    assert rows[0]["diff"] == 1.0 and rows[0]["lo"] == rows[0]["hi"] == 1.0  # one conversation


# ---------------------------------------------------------------- output


def test_as_json_shape(tmp_path):
    preds = stats.load_predictions(two_conversations(tmp_path))
    out = stats.as_json(preds)
    assert set(out) == {"file", "conversations", "questions", "arms", "constant_abstention", "mean_f1", "auc",
                        "resamples", "pairs"}
    assert (out["conversations"], out["questions"], out["arms"]) == (
        2, {"all": 5, "answerable": 3, "adversarial": 2}, ["x", "y"])
    assert out["mean_f1"] == {"x": {"answerable": 2 / 3, "adversarial": 1.0, "overall": 0.8},
                              "y": {"answerable": 2 / 3, "adversarial": 0.5, "overall": 0.6}}
    assert set(out["constant_abstention"]) == {"overall", "answerable", "adversarial"}
    assert out["auc"] == {"x": None, "y": None}
    assert len(out["pairs"]) == 2
    assert all(set(p) == {"a", "b", "half", "diff", "lo", "hi"} for p in out["pairs"])
    assert json.loads(json.dumps(out, allow_nan=False)) == out  # plain JSON types


def test_report_text(tmp_path):
    preds = stats.load_predictions(two_conversations(tmp_path))
    text = stats.report(preds)
    assert "constant abstention" in text
    assert "overall 0.400   answerable 0.000   adversarial 1.000" in text
    assert "confidence AUC" in text and "(no confidence in file)" in text
    assert "all 3 resamples, exact" in text
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert "x y answerable +0.000 [-1.000, +0.500]" in lines
    assert "x y adversarial +0.500 [+0.000, +1.000]" in lines


def test_bootstrap_by_category_adds_each_answerable_category(tmp_path):
    """Category 1 (multi hop) alone: A has x-y = +1 on its one multi-hop question, B none."""
    path = write(tmp_path, [
        {"sample_id": "A", "qa": [q(x=RIGHT, y=WRONG), q(category=1, x=RIGHT, y=WRONG)]},
        {"sample_id": "B", "qa": [q(x=WRONG, y=RIGHT)]},
    ])
    preds = stats.load_predictions(path)
    rows = stats.bootstrap_pairs(preds, by_category=True)
    assert [r["half"] for r in rows] == ["answerable", "adversarial", "single hop", "multi hop", "temporal", "open domain"]
    by = {r["half"]: r for r in rows}
    assert by["multi hop"]["diff"] == 1.0 and (by["multi hop"]["lo"], by["multi hop"]["hi"]) == (1.0, 1.0)
    assert by["single hop"]["diff"] == pytest.approx(0.0)
    assert by["temporal"]["diff"] is None and by["adversarial"]["diff"] is None  # no such question
    assert [r["half"] for r in stats.bootstrap_pairs(preds)] == ["answerable", "adversarial"]
    assert "  x    y    multi hop    +1.000  [+1.000, +1.000]" in stats.report(preds, by_category=True)


def test_cli_stats_by_category(tmp_path):
    from click.testing import CliRunner

    from graphmem.cli import main

    path = two_conversations(tmp_path)
    plain = CliRunner().invoke(main, ["stats", str(path)])
    wide = CliRunner().invoke(main, ["stats", str(path), "--by-category"])
    assert plain.exit_code == 0 and wide.exit_code == 0, wide.output
    assert "single hop" not in plain.output and "single hop" in wide.output
    as_json = json.loads(CliRunner().invoke(main, ["stats", str(path), "--json", "--by-category"]).output)
    assert {r["half"] for r in as_json["pairs"]} == {"answerable", "adversarial", "single hop", "multi hop", "temporal", "open domain"}


def test_json_carries_every_figure_the_text_prints(tmp_path):
    """``stats --json`` is the report as one object: every number the text shows is in it."""
    import re

    from click.testing import CliRunner

    from graphmem.cli import main

    path = two_conversations(tmp_path)
    for extra in ([], ["--by-category"]):
        text = CliRunner().invoke(main, ["stats", str(path), *extra]).output
        data = json.loads(CliRunner().invoke(main, ["stats", str(path), "--json", *extra]).output)
        assert text.startswith(f"{data['file']}: ") and f"arms: {', '.join(data['arms'])}" in text
        said = set()

        def walk(value):
            if isinstance(value, dict):
                for v in value.values():
                    walk(v)
            elif isinstance(value, list):
                for v in value:
                    walk(v)
            elif isinstance(value, int) and not isinstance(value, bool):
                said.update({str(value), f"{value:,}"})
            elif isinstance(value, float):
                said.update({f"{value:.3f}", f"{value:+.3f}"})

        walk(data)
        body = text.removeprefix(data["file"]).replace("(0.5 = chance)", "").replace("95%", "")
        printed = re.findall(r"(?<![\w.])[+-]?\d[\d,]*(?:\.\d+)?", body)  # not the 1 of F1
        assert printed and set(printed) <= said, set(printed) - said
