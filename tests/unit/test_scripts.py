"""The local servers' scripts keep their pid files per checkout: two checkouts on one machine (and one
user) never read, or stop, each other's server."""

import shutil
import subprocess

from tests.conftest import REPO


def test_model_local_keeps_its_pid_file_in_its_own_checkout(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    for checkout in ("one", "two"):
        scripts = tmp_path / checkout / "scripts"
        scripts.mkdir(parents=True)
        shutil.copy(REPO / "scripts" / "model-local", scripts / "model-local")
        done = subprocess.run(["bash", str(scripts / "model-local"), "status"], capture_output=True, text=True,
                              env={"HOME": str(home), "PATH": "/usr/bin:/bin", "GRAPHMEM_MODEL_PORT": "1"}, timeout=60)
        assert done.returncode == 1 and done.stdout == "model-local: not running\n", done
        assert (tmp_path / checkout / ".model-local").is_dir()
    assert not any(home.rglob("*")), "nothing is kept per user"
