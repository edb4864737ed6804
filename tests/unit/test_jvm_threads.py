"""Reading a node's JVM threads: from this machine's /proc when the engine is local, else
through the container."""
from __future__ import annotations

from tuninglab.jvm_threads import local_task_stats, read_threads

STAT = "{tid} ({name}) S 1 1 1 0 -1 0 0 0 0 0 {utime} {stime} 0 0 20 0 1 0 0"


def _process(proc, pid, comm, threads):
    (proc / str(pid)).mkdir()
    (proc / str(pid) / "comm").write_text(comm + "\n")
    for tid, name, ticks in threads:
        folder = proc / str(pid) / "task" / str(tid)
        folder.mkdir(parents=True)
        (folder / "stat").write_text(STAT.format(tid=tid, name=name, utime=ticks, stime=0))


class _Meter:
    def __init__(self, pids):
        self.pids = pids

    def processes(self):
        return self.pids


class _Container:
    """A container whose docker exec answers one thread, or fails."""

    def __init__(self, answer=None):
        self.answer, self.asked = answer, 0

    def run_on_jvm(self, fragment):
        self.asked += 1
        if self.answer is None:
            raise RuntimeError("exec failed")
        return self.answer


def test_the_java_process_among_the_containers_is_read_and_the_shell_is_not(tmp_path):
    _process(tmp_path, 10, "standalone.sh", [(10, "standalone.sh", 5)])
    _process(tmp_path, 11, "java", [(11, "java", 7), (12, "C2 CompilerThre", 300)])
    text = local_task_stats([10, 11], proc=tmp_path)
    assert sorted(line.split()[0] for line in text.splitlines()) == ["11", "12"]
    assert "C2 CompilerThre" in text


def test_no_java_process_or_a_process_that_ended_gives_none(tmp_path):
    _process(tmp_path, 10, "standalone.sh", [(10, "standalone.sh", 5)])
    assert local_task_stats([10, 99], proc=tmp_path) is None


def test_a_local_engine_reads_proc_without_asking_the_container(monkeypatch, tmp_path):
    _process(tmp_path, 11, "java", [(11, "java", 7), (12, "C2 CompilerThre", 300)])
    monkeypatch.setattr("tuninglab.jvm_threads.local_task_stats",
                        lambda pids: local_task_stats(pids, proc=tmp_path))
    container = _Container(answer="")
    threads = read_threads(container, _Meter([11]))
    assert container.asked == 0
    assert {t.name for t in threads} == {"java", "C2 CompilerThre"}


def test_a_remote_engine_or_no_java_found_asks_the_container(monkeypatch, tmp_path):
    monkeypatch.setattr("tuninglab.jvm_threads.local_task_stats",
                        lambda pids: local_task_stats(pids, proc=tmp_path))
    answer = STAT.format(tid=5, name="default task-1", utime=100, stime=0)
    remote = _Container(answer)
    assert [t.name for t in read_threads(remote, _Meter(None))] == ["default task-1"]
    _process(tmp_path, 10, "standalone.sh", [(10, "standalone.sh", 5)])
    local_without_java = _Container(answer)
    assert [t.name for t in read_threads(local_without_java, _Meter([10]))] == ["default task-1"]
    assert (remote.asked, local_without_java.asked) == (1, 1)
    assert read_threads(_Container(None), _Meter(None)) is None
