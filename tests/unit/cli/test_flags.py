"""One meaning per flag: ``--user`` is the memory's partition on every command that has it, the Neo4j
account is ``--neo4j-user`` / ``--neo4j-password`` everywhere; ``ingest`` takes ``--user`` and
``--backend neo4j``; ``forget`` says which ids matched nothing."""

import json

import click
import pytest
from click.testing import CliRunner

from graphmem import Memory
from graphmem.cli import main

NEO4J_COMMANDS = ["load", "bench", "bench6", "serve", "search", "ask", "facts", "forget", "ingest"]


@pytest.mark.parametrize("command", NEO4J_COMMANDS)
def test_the_neo4j_account_is_neo4j_user_and_neo4j_password_on_every_command(command):
    shown = CliRunner().invoke(main, [command, "--help"]).output
    assert "--neo4j-user" in shown and "--neo4j-password" in shown
    assert "--password" not in shown.replace("--neo4j-password", "")


@pytest.mark.parametrize("command", NEO4J_COMMANDS + ["update"])
def test_help_lists_the_memorys_own_options_before_the_neo4j_connection(command):
    """A fresh reader of ``ask --help`` (the embedded default) meets --data/--memory first, not --uri."""
    shown = CliRunner().invoke(main, [command, "--help"]).output
    own = min(shown.index(f"\n  {flag} ") for flag in ("--data", "--memory") if f"\n  {flag} " in shown)
    assert own < shown.index("\n  --uri ")


@pytest.mark.parametrize("command", ["load", "bench", "bench6"])
def test_user_is_no_neo4j_login_where_a_command_has_no_partition(command):
    result = CliRunner().invoke(main, [command, "--user", "neo4j"])
    assert result.exit_code == 2 and "No such option '--user'" in result.output


@pytest.mark.parametrize("command", ["search", "ask", "facts", "forget", "ingest", "serve"])
def test_user_is_the_partition_wherever_it_is(command):
    shown = CliRunner().invoke(main, [command, "--help"]).output
    assert "--user TEXT" in shown and "Neo4j" not in shown.split("--user TEXT")[1].split("\n  -")[0]


def test_a_refused_neo4j_login_names_the_neo4j_flags():
    from neo4j import exceptions as nx

    from graphmem.store.neo4j.client import Neo4jSettings, translate

    line = str(translate(nx.AuthError("no"), Neo4jSettings(uri="bolt://127.0.0.1:1", password="pw")))
    assert line.endswith("set NEO4J_USER and NEO4J_PASSWORD (or --neo4j-user and --neo4j-password)") and "pw" not in line


def _file(tmp_path, rows):
    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_ingest_user_makes_the_files_turns_that_users_and_refuses_a_record_of_another(tmp_path):
    saved = tmp_path / "m.db"
    rows = [{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}, {"id": "b", "speaker": "Bob", "text": "Nice!"}]
    done = CliRunner().invoke(main, ["ingest", "--quiet", "--memory", str(saved), "--user", "ann", str(_file(tmp_path, rows))])
    assert done.exit_code == 0 and done.output == f"2 turns added to {saved}; it holds 2\n", done.output
    with Memory(path=saved, read_only=True) as mem:
        assert [t.id for t in mem.turns(user="ann")] == ["a", "b"] and list(mem.turns()) == []
    other = _file(tmp_path, [{"id": "c", "speaker": "Cy", "text": "Hi.", "user": "cy"}])
    refused = CliRunner().invoke(main, ["ingest", "--quiet", "--memory", str(saved), "--user", "ann", str(other)])
    assert refused.exit_code == 1 and refused.output == \
        f"Error: {other}: line 1: the record's user 'cy' is not --user 'ann'\n"
    one = CliRunner().invoke(main, ["ingest", "--quiet", "--memory", str(saved), str(_file(tmp_path, rows[:1]))])
    assert one.output == f"1 turn added to {saved}; it holds 3\n", "one turn, not '1 turns'"


def test_ingest_takes_neo4j_as_its_backend_and_needs_one_place(tmp_path):
    turns = _file(tmp_path, [{"id": "a", "speaker": "Ann", "text": "hi"}])
    unreachable = CliRunner().invoke(main, ["ingest", "--backend", "neo4j", "--uri", "bolt://127.0.0.1:1",
                                            "--neo4j-password", "s3cret-pw", str(turns)])
    assert unreachable.exit_code == 1 and "cannot reach Neo4j at bolt://127.0.0.1:1" in unreachable.output
    assert "s3cret-pw" not in unreachable.output and unreachable.output.count("\n") == 1
    nowhere = CliRunner().invoke(main, ["ingest", str(turns)])
    assert nowhere.exit_code == 2 and "give --memory FILE, or --backend neo4j" in nowhere.output


def test_forget_says_which_ids_matched_nothing_without_naming_another_users_turns(tmp_path):
    saved = tmp_path / "m.db"
    with Memory(path=saved) as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "secret", "user": "ann"},
                    {"id": "b", "speaker": "Bob", "text": "public"}])
    runner = CliRunner()
    missed = runner.invoke(main, ["forget", "--memory", str(saved), "--id", "a", "--id", "zz"])
    assert missed.exit_code == 0
    assert missed.stdout == f"0 turns forgotten; {saved} holds 2\n"
    assert missed.stderr == ("not found among the turns without a user's turns: 'a', 'zz' (an id is its user's: "
                             "a turn ingested with a user is forgotten with --user)\n")
    done = runner.invoke(main, ["forget", "--memory", str(saved), "--id", "a", "--user", "ann"])
    assert done.stdout == f"1 turn forgotten; {saved} holds 1\n" and done.stderr == ""


def test_every_option_of_every_command_says_what_it_does():
    """``--help`` is the first thing a new user reads: an option shown with only its type explains nothing."""
    bare = [(name, p.opts[0]) for name, cmd in main.commands.items() for p in cmd.params
            if isinstance(p, click.Option) and not p.help]
    assert bare == []
