"""An interrupted run leaves no container, network or result behind; a killed run's leftovers
are swept by the next start."""
import os
import signal
import subprocess
import sys
import time

import docker

from tuninglab import cleanup

from .conftest import run_labels


def _start_run(results_dir):
    env = {**os.environ, "TUNINGLAB_RESULTS_DIR": str(results_dir), "PYTHONUNBUFFERED": "1"}
    # Ctrl-C's default action in the run, whatever the test's own parent did with it: a shell
    # that starts a command in the background (`... &`) hands it SIGINT ignored, Python then
    # installs no KeyboardInterrupt for it, and the run would ignore the test's Ctrl-C.
    return subprocess.Popen([sys.executable, "-m", "tuninglab.cli", "run", "aa-noise"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for(process, text, timeout=180):
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            break
        seen.append(line)
        if text in line:
            return "".join(seen)
    process.kill()
    raise AssertionError(f"'{text}' never appeared:\n{''.join(seen)}")


def _containers_of(client, pid):
    return client.containers.list(all=True, filters={"label": f"{cleanup.PID_LABEL}={pid}"})


def test_ctrl_c_during_a_trial_removes_everything(client, tmp_path):
    process = _start_run(tmp_path)
    _wait_for(process, "checks passed")
    time.sleep(2)  # the quick profile has no warm-up: the first trial's load is running
    assert _containers_of(client, process.pid), "the run should have containers by now"
    process.send_signal(signal.SIGINT)
    output = process.communicate(timeout=120)[0]
    assert process.returncode == 130, output
    assert "no result was stored" in output
    assert _containers_of(client, process.pid) == []
    assert list(tmp_path.rglob("*.json")) == []


def test_sigterm_removes_everything(client, tmp_path):
    process = _start_run(tmp_path)
    _wait_for(process, "stack: ready")
    process.terminate()
    process.communicate(timeout=120)
    assert process.returncode == 130
    assert _containers_of(client, process.pid) == []


def test_kill_9_leftovers_are_swept_at_the_next_start(client, tmp_path):
    process = _start_run(tmp_path)
    _wait_for(process, "stack: ready")
    process.kill()
    process.wait(timeout=30)
    leftovers = _containers_of(client, process.pid)
    assert leftovers, "kill -9 cannot clean up: the containers are still there"
    run_id = leftovers[0].labels[cleanup.RUN_LABEL]
    removed = cleanup.sweep_dead_runs(docker.from_env())
    assert removed
    assert run_labels(client, run_id) == []
