"""The README's memory-on-disk session (`graphmem ingest`, `ask`, `facts`, `forget`, `repair`) prints
what the README shows, run with click's CliRunner on the records of the README's own example."""

import ast
import re
import shlex
import shutil

from click.testing import CliRunner

from graphmem.cli import main
from tests.conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def _block(heading: str, fence: str) -> str:
    return re.search(re.escape(heading) + r".*?```" + fence + r"\n(.*?)```", README, re.S).group(1)


def _records() -> list[dict]:
    """The three records of the lifecycle example, without their user (as the README says)."""
    example = _block("### Users, what holds, forgetting", "python")
    rows = [ast.literal_eval(m) for m in re.findall(r"^\s+(\{.*?\}),?$", example, re.M)]
    return [{k: v for k, v in r.items() if k != "user"} for r in rows]


def _session() -> list[tuple[list[str], list[str]]]:
    """Each ``$ graphmem ...`` command of the session, and the output lines the README shows for it."""
    steps: list[tuple[list[str], list[str]]] = []
    for line in _block("### `graphmem ingest`, `facts`, `forget`, `repair`", "").splitlines():
        if line.startswith("$ graphmem "):
            steps.append((shlex.split(line[len("$ graphmem "):]), []))
        elif steps:
            steps[-1][1].append(line)
    return steps


def test_the_readme_session_prints_what_it_shows(tmp_path, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    (tmp_path / "moves.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _records()), encoding="utf-8")
    runner = CliRunner()
    steps = _session()
    assert [args[0] for args, _ in steps] == ["ingest", "ask", "facts", "forget", "repair"]
    for args, shown in steps:
        if args[0] == "repair":
            shutil.copy(tmp_path / "memory.db", tmp_path / "damaged.db")
        done = runner.invoke(main, args)
        assert done.exit_code == 0, (args, done.output)
        printed = [line for line in done.output.splitlines() if line != "ingesting"]
        for i, line in enumerate(shown):
            if line.endswith(" ..."):  # the README cuts the output here
                assert printed[i].startswith(line[:-4]), (args, printed)
                break
            assert printed[i] == line, (args, printed)
