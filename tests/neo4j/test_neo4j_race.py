"""Reads beside a forget of the same user's turns (issue #47, finding 3): a turn deleted between a
read's match and its return is left out, never a raw error (``bench/neo4j_race.py``; its 5,000-call
run is in docs/lifecycle.md)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO
from tests.neo4j.test_neo4j import server_or_skip


def test_searches_and_asks_beside_a_forgetter_meet_no_raw_error():
    server_or_skip().close()
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    run = subprocess.run([sys.executable, str(REPO / "bench" / "neo4j_race.py"), "--calls", "1500", "--seconds", "240"],
                         capture_output=True, text=True, env=env, timeout=400)
    assert run.returncode == 0 and "raw errors: 0" in run.stdout, run.stdout + run.stderr
    assert "1500 reads" in run.stdout  # every read was made, none cut short by the clock
