"""scripts/lib/engine.sh: the engine that set-up starts must outlive it without holding its lock."""
import os
import subprocess
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _fake(path: Path, text: str) -> None:
    path.write_text("#!/bin/sh\n" + textwrap.dedent(text))
    path.chmod(0o755)


def test_a_started_engine_does_not_keep_the_setup_lock(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # A stand-in dockerd that stays up (like the real one), and a docker client that answers
    # once it runs: engine_start_local's whole contract, without a real engine.
    _fake(bin_dir / "dockerd", f"""\
        echo $$ > {tmp_path}/dockerd.pid
        exec sleep 60
        """)
    _fake(bin_dir / "docker", f"""\
        [ -s {tmp_path}/dockerd.pid ]
        """)
    lock = tmp_path / ".setup.lock"
    script = f"""
        set -euo pipefail
        ROOT={ROOT}; TL_CACHE={tmp_path}
        source {ROOT}/scripts/lib/common.sh
        source {ROOT}/scripts/lib/engine.sh
        DOCKERD_PIDFILE={tmp_path}/absent.pid
        exec 9>{lock}
        flock -n 9
        engine_start_local
    """
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "started in" in done.stdout
    pid = int((tmp_path / "dockerd.pid").read_text())
    try:
        assert Path(f"/proc/{pid}").exists(), "the engine should still run after set-up exits"
        # The next set-up must get the lock at once.
        free = subprocess.run(["flock", "-n", str(lock), "true"], timeout=10)
        assert free.returncode == 0, "the engine started by set-up still holds set-up's lock"
    finally:
        os.kill(pid, 15)
        time.sleep(0.1)
