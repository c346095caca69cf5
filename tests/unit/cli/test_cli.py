"""The command line, through click's CliRunner."""

import json

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from tests.conftest import need_meaning


def test_bench_prints_settings_table_and_timing(locomo_path, tmp_path):
    out = tmp_path / "answers.json"
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "vector,oracle", "--out", str(out), "--show", "1"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "k=5 floor=0.30 span=4 band=0.90 parts=2" in text
    for row in ["single hop       841", "multi hop        282", "temporal         321", "open domain       96",
                "adversarial      446", "answerable      1540", "overall         1986"]:
        assert row in text
    assert "F1 recall  quiet" in text
    assert "evidence: 5 ids repaired, 4 dropped" in text
    assert "cpu " in text and "wall " in text
    assert "[adversarial]" in text  # --show prints a question per category
    samples = json.loads(out.read_text())
    assert [s["sample_id"] for s in samples][:2] == ["conv-26", "conv-30"]
    qa = samples[0]["qa"][0]
    assert {"question", "answer", "evidence", "category", "vector_prediction", "vector_prediction_context",
            "vector_confidence", "oracle_prediction"} <= set(qa)
    assert isinstance(qa["vector_prediction"], str) and isinstance(qa["vector_confidence"], float)
    assert sum(len(s["qa"]) for s in samples) == 1986


def test_bench_bad_data_is_one_line_and_non_zero(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(main, ["bench", "--data", str(bad), "--arms", "vector"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert str(bad) in result.output and "not JSON" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_unknown_arm_is_refused(locomo_path):
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "vector,telepathy"])
    assert result.exit_code != 0
    assert "unknown arm 'telepathy'" in result.output


def test_missing_file_is_one_line(tmp_path):
    result = CliRunner().invoke(main, ["bench", "--data", str(tmp_path / "nope.json"), "--arms", "vector"])
    assert result.exit_code != 0 and "nope.json" in result.output and "Traceback" not in result.output


def test_bench_over_an_unreachable_neo4j_is_one_line(locomo_path):
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "path",
                                       "--backend", "neo4j", "--uri", "bolt://127.0.0.1:1", "--neo4j-password", "s3cret-pw"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "cannot reach Neo4j at bolt://127.0.0.1:1" in result.output and "s3cret-pw" not in result.output
    assert len(result.output.strip().splitlines()) == 1


TURNS = [
    {"id": "d1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday!", "date": "2023-05-08", "conversation": "c1"},
    {"id": "d2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps last week.", "date": "2023-05-08", "conversation": "c1"},
]


def _turns_file(tmp_path, rows=TURNS):
    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_search_prints_the_returned_turns_best_first(tmp_path):
    result = CliRunner().invoke(main, ["search", "Who went hiking in the Alps?", "--data", str(_turns_file(tmp_path)), "-k", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "c1/d2  Bob (8 May 2023): Congrats! I went hiking in the Alps last week."


def test_search_asked_on_reads_the_querys_relative_dates(tmp_path):
    rows = TURNS + [{"id": "d3", "speaker": "Ann", "text": "Rex and I went to the park.", "date": "2023-04-17", "conversation": "c1"}]
    data = str(_turns_file(tmp_path, rows))
    plain = CliRunner().invoke(main, ["search", "Where did we go last Monday?", "--data", data, "-k", "1"])
    assert plain.exit_code == 0 and plain.output.startswith("  c1/d2"), plain.output  # "go" alone
    dated = CliRunner().invoke(main, ["search", "Where did we go last Monday?", "--data", data, "-k", "1",
                                      "--asked-on", "2023-04-20"])
    assert dated.exit_code == 0 and dated.output.startswith("  c1/d3"), dated.output  # Monday 17 April
    bad = CliRunner().invoke(main, ["ask", "Where did we go?", "--data", data, "--asked-on", "someday"])
    assert bad.exit_code == 1 and bad.output.strip() == "Error: --asked-on: cannot read the date 'someday'", bad.output


def test_ask_prints_reply_its_sentence_confidence_and_citations(tmp_path):
    data = str(_turns_file(tmp_path))
    result = CliRunner().invoke(main, ["ask", "When did Ann adopt a dog?", "--data", data])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "reply: 7 May 2023"
    assert lines[1] == "from: c1/d1  I adopted a dog called Rex yesterday!"  # the sentence the date was read off
    assert lines[2].startswith("confidence: ") and lines[2].endswith("(coverage, floor 0.30)")
    assert lines[3] == "cited:" and lines[4].startswith("  c1/d1  Ann (8 May 2023): I adopted a dog")
    quoted = CliRunner().invoke(main, ["ask", "Where did Bob go hiking?", "--data", data]).output.splitlines()
    said = "Congrats! I went hiking in the Alps last week."
    reply, source = quoted[0].removeprefix("reply: "), quoted[1].removeprefix("from: c1/d2  ")
    assert "Alps" in reply and reply in source and source in said  # a phrase of the sentence, as said
    quiet = CliRunner().invoke(main, ["ask", "What is the capital of Mongolia?", "--data", data]).output.splitlines()
    assert quiet[0] == "reply: No information available" and quiet[1].startswith("confidence: ")  # nothing read
    strict = CliRunner().invoke(main, ["ask", "When did Ann adopt a dog?", "--data", data, "--floor", "1"])
    assert strict.output.splitlines()[0] == "reply: No information available"


def test_ask_by_meaning_over_a_chat_with_an_assistant(tmp_path):
    """--confidence meaning: a cosine and its own floor (the dense extra and WordNet)."""
    from graphmem.memory.meaning import MEANING_FLOOR, floor_text

    need_meaning()
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"id": "u1", "speaker": "user", "text": "I played baseball every weekend last summer.", "conversation": "s1"},
        {"id": "a1", "speaker": "assistant", "text": "Baseball keeps you active!", "conversation": "s1"}]))
    told = CliRunner().invoke(main, ["ask", "What sport did I play last summer?", "--data", str(path),
                                     "--confidence", "meaning", "-k", "1"])
    assert told.exit_code == 0, told.output
    lines = told.output.splitlines()
    assert "baseball" in lines[0] and lines[1] == "from: s1/u1  I played baseball every weekend last summer."
    assert lines[2].endswith(f"(meaning, floor {floor_text(MEANING_FLOOR)})")
    assert lines[3:] == ["cited:", "  s1/u1  user: I played baseball every weekend last summer."]
    swapped = CliRunner().invoke(main, ["ask", "How often did I play football?", "--data", str(path),
                                        "--confidence", "meaning", "--meaning-floor", "0.5"])
    assert swapped.output.splitlines()[:2] == ["reply: No information available", "confidence: 0.000 (meaning, floor 0.50)"]
    alone = CliRunner().invoke(main, ["ask", "How often did I play football?", "--data", str(path), "--meaning-floor", "0.5"])
    assert alone.exit_code == 2 and "--meaning-floor is the floor of --confidence meaning" in alone.output


def test_ask_over_locomo_names_turns_by_conversation(locomo_path):
    result = CliRunner().invoke(main, ["ask", "When did Caroline go to the LGBTQ support group?", "--data", str(locomo_path),
                                       "--conversation", "conv-26", "-k", "1"])
    assert result.exit_code == 0, result.output
    assert "reply: 7 May 2023" in result.output
    assert "  conv-26/D1:3  Caroline (8 May 2023): I went to a LGBTQ support group yesterday" in result.output


def test_ask_with_a_bad_turn_is_one_line_and_non_zero(tmp_path):
    path = _turns_file(tmp_path, [TURNS[0], {"id": "d2", "text": "who said this?"}])
    result = CliRunner().invoke(main, ["ask", "Who adopted a dog?", "--data", str(path)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"{path}: line 2" in result.output and "missing 'speaker'" in result.output


def test_ask_refuses_data_with_the_neo4j_backend(tmp_path):
    result = CliRunner().invoke(main, ["ask", "x", "--backend", "neo4j", "--data", str(_turns_file(tmp_path))])
    assert result.exit_code != 0 and "graphmem load --data" in result.output


def test_ask_over_an_unreachable_neo4j_is_one_line():
    result = CliRunner().invoke(main, ["ask", "x", "--backend", "neo4j", "--uri", "bolt://127.0.0.1:1"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "cannot reach Neo4j at bolt://127.0.0.1:1" in result.output


def test_ingest_then_ask_and_search_a_saved_memory(tmp_path):
    from click.testing import CliRunner

    from graphmem.cli import main

    turns = tmp_path / "turns.jsonl"
    turns.write_text('{"id": "d1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday.", "date": "2023-05-08"}\n'
                     '{"id": "d2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps.", "date": "2023-05-08"}\n')
    saved = tmp_path / "m.db"
    runner = CliRunner()
    done = runner.invoke(main, ["ingest", "--memory", str(saved), str(turns), "--quiet"])
    assert done.exit_code == 0 and "2 turns added" in done.output
    done = runner.invoke(main, ["ask", "When did Ann adopt a dog?", "--memory", str(saved)])
    assert done.exit_code == 0 and "reply: 7 May 2023" in done.output
    done = runner.invoke(main, ["search", "hiking", "--memory", str(saved), "-k", "1"])
    assert done.exit_code == 0 and "default/d2" in done.output
    again = runner.invoke(main, ["ingest", "--memory", str(saved), str(turns)])
    assert again.exit_code == 0 and "0 turns added" in again.output and "2 of the file's turns it held already" in again.output
    turns.write_text('{"id": "d1", "speaker": "Ann", "text": "Another text.", "date": "2023-05-08"}\n')
    other = runner.invoke(main, ["ingest", "--memory", str(saved), str(turns)])
    assert other.exit_code == 1 and "turns.jsonl: line 1 (id 'd1'): the memory holds id 'd1' already, with other content" in other.output
    missing = runner.invoke(main, ["search", "dog", "--memory", str(tmp_path / "none.db")])
    assert missing.exit_code == 1 and "none.db: no such memory file" in missing.output


@pytest.mark.parametrize("asked_on", ["9999-12-31", "0001-01-01"])
@pytest.mark.parametrize("question", ["What happened tomorrow?", "What will Ann do next year?", "Who called yesterday?"])
def test_a_question_asked_at_the_calendars_edges_is_answered_not_a_traceback(tmp_path, asked_on, question):
    """"tomorrow" asked on the last day of the calendar names no day: the question is answered
    from its words (or abstains), in the CLI as in the API, never an OverflowError."""
    path = _turns_file(tmp_path)
    runner = CliRunner()
    for command in ("ask", "search"):
        done = runner.invoke(main, [command, question, "--data", str(path), "--asked-on", asked_on])
        assert done.exit_code == 0 and "Traceback" not in done.output, done.output
        assert done.exception is None or isinstance(done.exception, SystemExit)
