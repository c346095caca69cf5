"""``graphmem update`` and ``--where``: a turn changed in a memory file, in one line, and a search kept
to the turns whose metadata match (CliRunner; the Neo4j twin is the conformance suite's update case)."""

from __future__ import annotations


from click.testing import CliRunner

from graphmem import Memory
from graphmem.cli import main

RECORDS = [
    {"id": "m1", "speaker": "Alice", "text": "I live in Paris.", "date": "2023-01-10", "turn": 1,
     "metadata": {"source": "email"}},
    {"id": "m2", "speaker": "Bob", "text": "Paris is lovely, and so is the river.", "date": "2023-01-10", "turn": 2},
    {"id": "m3", "speaker": "Alice", "text": "The river was cold.", "date": "2023-01-11", "turn": 3, "user": "u1"},
]


def _memory(tmp_path):
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(RECORDS)
    return str(path)


def test_update_changes_the_turn_and_says_what_it_holds_now(tmp_path):
    path = _memory(tmp_path)
    result = CliRunner().invoke(main, ["update", "m1", "--text", "I live in Berlin.", "--metadata", '{"source": "sms", "n": 2}',
                                       "--memory", path])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"updated in {path}:",
                                          '  default/m1  Alice (10 January 2023): I live in Berlin.  {"source": "sms", "n": 2}']
    with Memory(path=path, read_only=True) as mem:
        turn = mem.get("m1")
        assert (turn.text, dict(turn.metadata), turn.number) == ("I live in Berlin.", {"source": "sms", "n": 2}, 1)
        assert mem.search("Berlin", k=1) == ["m1"] and len(mem) == 3  # m2, replying to it, reads it too
    user = CliRunner().invoke(main, ["update", "m3", "--speaker", "Bob", "--memory", path, "--user", "u1"])
    assert user.exit_code == 0 and "default/m3  Bob (11 January 2023): The river was cold." in user.output


def test_update_refuses_in_one_line_and_changes_nothing(tmp_path):
    path = _memory(tmp_path)
    cases = [(["update", "nowhere", "--text", "x", "--memory", path], 1,
              "Error: id 'nowhere': the memory holds no such turn (ingest it instead)"),
             (["update", "m3", "--text", "x", "--memory", path], 1,
              "Error: id 'm3': the memory holds no such turn (ingest it instead)"),
             (["update", "m1", "--metadata", "{x", "--memory", path], 1, "Error: --metadata: not JSON"),
             (["update", "m1", "--metadata", '{"a b": 1}', "--memory", path], 1,
              "Error: update of id 'm1' (id 'm1'): metadata name 'a b' must be"),
             (["update", "m1", "--memory", path], 2, "Error: say what to change"),
             (["update", "m1", "--text", "x"], 2, "Error: give --memory FILE, or --backend neo4j"),
             (["update", "m1", "--text", "x", "--memory", str(tmp_path / "none.db")], 1, "Error: "),
             (["update", "m1", "--text", "x", "--memory", path, "--backend", "neo4j"], 2, "Error: give --memory FILE")]
    for args, code, line in cases:
        result = CliRunner().invoke(main, args)
        assert result.exit_code == code, (args, result.output)
        assert result.output.splitlines()[-1].startswith(line), (args, result.output)
    with Memory(path=path, read_only=True) as mem:
        assert [(t.id, t.text) for t in mem.turns()] == [(r["id"], r["text"]) for r in RECORDS[:2]]


def test_search_and_ask_keep_to_the_turns_where_selects(tmp_path):
    path = _memory(tmp_path)
    plain = CliRunner().invoke(main, ["search", "Paris river", "--memory", path])
    assert [line.split()[0] for line in plain.output.splitlines()] == ["default/m2", "default/m1"]
    only = CliRunner().invoke(main, ["search", "Paris river", "--memory", path, "--where", "source=email"])
    assert [line.split()[0] for line in only.output.splitlines()] == ["default/m1"]
    none = CliRunner().invoke(main, ["search", "Paris", "--memory", path, "--where", "source=email", "--where", "n=1"])
    assert none.output.strip() == "(nothing matched)"
    asked = CliRunner().invoke(main, ["ask", "Where does Alice live?", "--memory", path, "--where", "source=chat"])
    assert asked.output.splitlines()[0] == "reply: No information available"
    bad = CliRunner().invoke(main, ["search", "Paris", "--memory", path, "--where", "source"])
    assert bad.exit_code == 2 and "--where 'source': give NAME=VALUE" in bad.output
