"""profiling.py and site/profile_table.py: the profiled pass's archive, what a stored pass
ranks, how a page shows it, and a pass that fails is recorded without failing the run."""
from __future__ import annotations

import io
import zipfile
from types import SimpleNamespace

from tuninglab import profiling
from tuninglab.site import profile_table

PASS = {"settings": "profile", "window_s": 10, "nodes": {"baseline": "app-1", "variant": "app-2"},
        "arms": {"baseline": {"samples": 200, "truncated": 3,
                              "self": [["java.util.HashMap.put", 50], ["org.x.Copy.deep", 40],
                                       ["a.B.c", 2]],
                              "total": [["java.lang.Thread.run", 200]]},
                 "variant": {"samples": 100, "truncated": 0,
                             "self": [["java.util.HashMap.put", 30], ["org.x.Fast.go", 10]],
                             "total": [["java.lang.Thread.run", 100]]}}}


def test_the_archive_holds_the_jsp_and_its_module_dependency():
    war = zipfile.ZipFile(io.BytesIO(profiling.probe_war()))
    assert sorted(war.namelist()) == ["WEB-INF/jboss-deployment-structure.xml", "profile.jsp"]
    assert b'<module name="jdk.jfr"/>' in war.read("WEB-INF/jboss-deployment-structure.xml")
    jsp = war.read("profile.jsp").decode()
    assert "jdk.ExecutionSample" in jsp and "new Recording(" in jsp
    assert profiling.probe_war() == profiling.probe_war()  # same bytes on every node


def test_the_hottest_methods_are_the_union_of_each_arm_s_first_as_shares():
    rows = profiling.hottest(PASS, "self", 2)
    assert [r["method"] for r in rows] == ["java.util.HashMap.put", "org.x.Copy.deep",
                                           "org.x.Fast.go"]
    assert rows[0]["shares"] == {"baseline": 0.25, "variant": 0.30}
    assert rows[1]["shares"] == {"baseline": 0.20, "variant": None}  # not in variant's list
    assert rows[2]["shares"] == {"baseline": None, "variant": 0.10}


def test_a_method_name_keeps_its_last_package_class_and_method():
    assert profiling.short_method("org.jboss.as.ejb3.component.Foo.bar") == "o.j.a.e.component.Foo.bar"
    assert profiling.short_method("java.util.HashMap.put") == "j.util.HashMap.put"
    assert profiling.short_method("Main.run") == "Main.run"


def test_a_page_shows_the_pass_as_a_table_with_its_samples():
    lines = profile_table.render({"profiled_pass": PASS})
    text = "\n".join(lines)
    assert "Where the time went" in text and "baseline 200, variant 100" in text
    assert "| `j.util.HashMap.put` | 25.0% | 30.0% |" in text
    assert "| `o.x.Fast.go` | — | 10.0% |" in text
    assert profile_table.render({}) == []


def test_a_failed_pass_is_said_and_the_numbers_stand():
    text = "\n".join(profile_table.render({"profiled_pass": {"arms": {}, "error": "boom"}}))
    assert "failed: boom" in text and "do not depend on it" in text


def test_a_pass_that_fails_is_recorded_and_removes_what_it_deployed():
    removed, measured = [], []

    class Management:
        def __init__(self, node):
            self.node = node

        def execute(self, operation, address, **params):
            if operation == "remove":
                removed.append(self.node)

    node = SimpleNamespace(put_bytes=lambda path, data: None,
                           app_url=lambda: "http://127.0.0.1:9")  # nothing listens there
    limits = []
    stack = SimpleNamespace(nodes={"app-1": node, "app-2": node},
                            management_of=lambda name: Management(name),
                            widen=lambda name: limits.append(("widen", name)),
                            restore=lambda name: limits.append(("restore", name)))
    record = profiling.run_pass(stack, {"baseline": "app-1", "variant": "app-2"},
                                lambda: measured.append(True), 10)
    assert record["arms"] == {} and "URLError" in record["error"]
    assert measured == []  # no recording started: no window run for it
    assert removed == ["app-1", "app-2"]
    assert sorted(limits) == [("restore", "app-1"), ("restore", "app-2"),
                              ("widen", "app-1"), ("widen", "app-2")]  # quotas back


def test_the_terminal_summary_lists_the_hottest_methods_per_arm():
    from tuninglab import report
    lines = report._profiled_lines({"profiled_pass": PASS})
    assert "baseline 200, variant 100" in lines[0]
    assert lines[2].split() == ["25.0%", "30.0%", "j.util.HashMap.put"]
    assert lines[3].split() == ["20.0%", "-", "o.x.Copy.deep"]
    assert report._profiled_lines({}) == []


def test_the_packages_that_differ_most_between_two_arms_come_first():
    record = {"arms": {
        "baseline": {"samples": 100, "packages": [["io.undertow.server", 95],
                                                  ["org.jboss.marshalling.cloner", 30],
                                                  ["java.util", 40]]},
        "variant": {"samples": 50, "packages": [["io.undertow.server", 48], ["java.util", 18]]}}}
    rows = profiling.differing(record, 2)
    assert [r["package"] for r in rows] == ["org.jboss.marshalling.cloner", "java.util"]
    assert rows[0]["shares"] == {"baseline": 0.30, "variant": 0.0}  # absent: none of its samples
    text = "\n".join(profile_table.render({"profiled_pass": {**PASS, **record,
                                                             "arms": {**record["arms"]}}}))
    assert "| `org.jboss.marshalling.cloner` | 30.0% | 0.0% | -30.0 points |" in text
    assert profiling.differing(PASS) == []  # a pass stored before packages
