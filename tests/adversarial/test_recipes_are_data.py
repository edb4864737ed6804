"""A recipe is a data file (issue 30): it may change what it declares and nothing else. Every
input that would run a command, load code, or take the lab's own traffic or management away
is refused by `validate` and `run` with exit 2, naming the file, the key and what is allowed,
before any container; so are the last inputs that used to end in "internal error"."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from advkit import assert_clean_error
from tuninglab import errors, layout

FIXTURE = Path(__file__).resolve().parents[1] / "site" / "data" / "fixture-result-full.json"

# --------------------------------------------------------------------------- JVM options

JVM_CASES = [
    ("command substitution (the issue's probe)", "-Xmx1g -Dlab.probe=$(id${IFS}-un)@$(hostname)",
     ["stack.jvm_options", "shell syntax", "'$'"]),
    ("backticks", "-Xmx1g -Dx=`id`", ["stack.jvm_options", "'`'"]),
    ("a command separator", "-Xmx1g; touch /tmp/x", ["stack.jvm_options", "';'"]),
    ("a command on out-of-memory", '-Xmx1g -XX:OnOutOfMemoryError="kill -9 %p"',
     ["-XX:OnOutOfMemoryError", "runs a shell command"]),
    ("a command on a crash", "-Xmx1g -XX:OnError=reboot", ["-XX:OnError", "shell command"]),
    ("a Java agent", "-Xmx1g -javaagent:/tmp/agent.jar", ["-javaagent", "loads a Java agent"]),
    ("a native agent", "-Xmx1g -agentpath:/tmp/x.so", ["-agentpath", "native agent"]),
    ("an argument file", "-Xmx1g @/tmp/args", ["@/tmp/args", "reads further options"]),
    ("not an option", "-Xmx1g hello", ["'hello' is not a JVM option", "allowed: -X<option>"]),
    ("the lab's ports moved", "-Xmx1g -Djboss.socket.binding.port-offset=100",
     ["port-offset", "moves every port"]),
    ("a listener moved", "-Xmx1g -Djboss.bind.address.private=10.0.0.1",
     ["jboss.bind.address.private", "moves the listeners"]),
]


@pytest.mark.parametrize("options, needles", [c[1:] for c in JVM_CASES],
                         ids=[c[0] for c in JVM_CASES])
@pytest.mark.parametrize("command", ["validate", "run"])
def test_jvm_options_are_jvm_options_only(repo, options, needles, command):
    repo.edit('app_memory = "2g"', f"app_memory = \"2g\"\njvm_options = '{options}'")
    outcome = repo.cli(command, "pool-size")
    assert_clean_error(outcome, 2, "recipe.toml", *needles)
    if command == "run":
        assert "no Docker engine" not in outcome.text  # refused before the engine was asked


def test_a_variant_arms_jvm_options_are_checked_too(repo):
    repo.edit('kind = "jboss-cli"\nfile = "change.cli"',
              "kind = \"jvm-options\"\njvm_options = '-Xmx1g -Dp=$(id)'")
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "change.jvm_options", "'$'")


def test_ordinary_jvm_options_pass(repo):
    """The control: the options the catalogue uses (a flight recording, unified logging)."""
    repo.edit('app_memory = "2g"', 'app_memory = "2g"\njvm_options = "-Xms1g -Xmx1g '
              '-XX:+UseParallelGC -XX:StartFlightRecording=settings=default,filename=/tmp/lab.jfr '
              '-Xlog:gc*:file=/tmp/gc.log -Dname=\'a b\' -ea"')
    outcome = repo.cli("validate", "pool-size")
    assert outcome.code == 0, outcome.text


# --------------------------------------------------------------------------- PostgreSQL


def _pg_recipe(repo, fragment: str):
    repo.write("change.conf", fragment)
    repo.edit('kind = "jboss-cli"\nfile = "change.cli"',
              'kind = "postgresql-conf"\nfile = "change.conf"')


@pytest.mark.parametrize("fragment, needles", [
    ("archive_mode = on\narchive_command = 'touch /tmp/x'\n",
     ["archive_command", "runs a shell command"]),
    ("listen_addresses = ''\n", ["listen_addresses", "off the stack's network"]),
    ("shared_preload_libraries = 'auto_explain'\n", ["shared_preload_libraries", "loads"]),
    ("port = 5433\n", ["'port'", "moves the database"]),
    ("include = '/etc/passwd'\n", ["'include'", "reads another file"]),
    ("my_new_command = 'x'\n", ["my_new_command", "runs a shell command"]),
], ids=["archive_command", "listen_addresses", "preload", "port", "include", "a *_command"])
def test_postgresql_parameters_that_run_or_cut_off_are_refused(repo, fragment, needles):
    _pg_recipe(repo, fragment)
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "change.file", *needles)


def test_a_refused_parameter_in_the_baseline_names_it(repo):
    _pg_recipe(repo, "synchronous_commit = off\n")
    repo.write("baseline.conf", "data_directory = '/tmp'\n")
    repo.edit('cli = "baseline.cli"', 'cli = "baseline.cli"\npg_conf = "baseline.conf"')
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "baseline.pg_conf", "data_directory")


# --------------------------------------------------------------------------- jboss-cli

CLI_CASES = [
    ("the HTTP listener disabled",
     "/subsystem=undertow/server=default-server/http-listener=default:write-attribute(name=enabled,value=false)",
     ["HTTP listener the load uses"]),
    ("the management port's binding undone",
     "/socket-binding-group=standard-sockets/socket-binding=management-http:undefine-attribute(name=interface)",
     ["ports and addresses"]),
    ("the management interface",
     "/core-service=management/management-interface=http-interface:write-attribute(name=http-upgrade-enabled,value=false)",
     ["management interface"]),
    ("the deployment disabled",
     "/deployment=orderentry.war:write-attribute(name=enabled,value=false)",
     ["application under test"]),
    ("the database moved",
     "/subsystem=datasources/data-source=OrderDS:write-attribute(name=connection-url,value=jdbc:postgresql://elsewhere/x)",
     ["connection the application"]),
    ("a scanner that deploys a folder",
     "/subsystem=deployment-scanner/scanner=mine:add(path=/tmp)", ["what the server deploys"]),
    ("a tl. property with one dot", "/system-property=tl.x:add(value=1)",
     ["tl.<section>.<key>"]),
]


@pytest.mark.parametrize("line, needles", [c[1:] for c in CLI_CASES],
                         ids=[c[0] for c in CLI_CASES])
@pytest.mark.parametrize("command", ["validate", "run"])
def test_cli_operations_on_the_labs_own_traffic_are_refused(repo, line, needles, command):
    repo.write("change.cli", line + "\n")
    outcome = repo.cli(command, "pool-size")
    assert_clean_error(outcome, 2, "change.cli:1", "refused" if "tl." not in line else "tl.x",
                       *needles)


def test_a_protected_operation_in_the_baseline_is_refused(repo):
    repo.write("baseline.cli", "/interface=public:write-attribute(name=inet-address,value=1.2.3.4)\n")
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "baseline.cli:1", "refused")


def test_tuning_the_http_listener_is_allowed(repo):
    """The control: the listener's own tunables (keep-alive, connections) stay a recipe's."""
    repo.write("change.cli", "/subsystem=undertow/server=default-server/http-listener=default:"
                             "write-attribute(name=max-connections,value=200)\n")
    outcome = repo.cli("validate", "pool-size")
    assert outcome.code == 0, outcome.text


# --------------------------------------------------------------------------- the rest


def _result(**changes) -> dict:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data.update(changes)
    return data


@pytest.mark.parametrize("changes, needle", [
    ({"verdict": 7}, "verdict: a number; allowed: a string or null"),
    ({"trials": "none"}, "trials: a string; allowed: a list"),
    ({"analysis": []}, "analysis: a list; allowed: an object"),
    ({"trials": [7]}, "another type"),
], ids=["verdict a number", "trials a string", "analysis a list", "a nested key"])
@pytest.mark.parametrize("command", ["show", "compare"])
def test_a_result_whose_keys_have_the_wrong_types(repo, changes, needle, command):
    bad = repo.store("pool-size", _result(**changes))
    args = [str(bad)] if command == "show" else [str(bad), str(bad)]
    assert_clean_error(repo.cli(command, *args), 2, str(bad), needle)


def test_an_app_toml_that_is_not_utf8_is_named_and_hides_nothing(repo):
    app = repo.root / "apps" / "broken"
    app.mkdir(parents=True)
    (app / "app.toml").write_bytes(b'context_root = "/x\xff"\n')
    other = repo.copy_sample("uses-broken")
    toml = other / "recipe.toml"
    toml.write_text(toml.read_text().replace('mix = "default"', 'app = "broken"\nmix = "default"'))
    outcome = repo.cli("validate")
    assert_clean_error(outcome, 2, "apps/broken/app.toml", "UTF-8")
    assert "ok    pool-size" in outcome.out  # the other recipes are still validated
    listed = repo.cli("list")
    assert "pool-size" in listed.out, listed.text


def test_one_id_in_two_areas(repo):
    repo.copy_sample("pool-size", area="thesis")
    for command in (["validate"], ["validate", "pool-size"]):
        assert_clean_error(repo.cli(*command), 2, "duplicate recipe id", "guide", "thesis")
    listed = repo.cli("list")  # list shows what it finds, a broken recipe as BROKEN
    assert listed.out.count("BROKEN") == 2 and "duplicate recipe id" in listed.out, listed.text


def test_a_recipe_folder_that_is_a_symlink(repo):
    (repo.root / "recipes" / "guide" / "loop").symlink_to(repo.root / "recipes" / "guide" / "loop")
    assert_clean_error(repo.cli("validate"), 2, "loop", "symbolic link")


def test_an_oversized_recipe_toml(repo):
    toml = repo.sample / "recipe.toml"
    toml.write_text(toml.read_text() + "# padding\n" * 600_000)
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "recipe.toml", "too large",
                       "allowed: at most")


def test_cluster_nodes_whose_caps_exceed_the_machine(repo):
    huge = int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 30 / 3) + 1
    repo.edit('app_memory = "2g"', f'app_memory = "{huge}g"')
    repo.edit("[workload]", "[cluster]\nnodes = 4\ncpus = 0.25\n\n[workload]")
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "stack.app_memory", "4 nodes",
                       "this machine has")


def test_the_interrupt_message_names_what_interrupted():
    assert "interrupted ()" not in errors.classify(KeyboardInterrupt()).message
    assert "Ctrl-C" in errors.classify(KeyboardInterrupt()).message


def test_the_result_stores_temporary_files_are_ignored_by_git():
    temp = "results/some-recipe/.20300101T000000Z-host.json.abc123.tmp"
    found = subprocess.run(["git", "check-ignore", "--no-index", "-q", temp],
                           cwd=layout.REPO_ROOT, check=False)
    assert found.returncode == 0, f"{temp} is not ignored by .gitignore"


def test_an_identical_retry_is_named_as_a_repeat(tmp_path):
    """Same recipe files, commit, profile and stack: the second run is found as a repeat of
    the first (the run says so); another commit is not a repeat."""
    from tuninglab import store
    first = _result()
    first["provenance"].update(recipe_hash="r1", git_commit="c1", git_dirty=False,
                               stack_inputs="s1", role_inputs={})
    assert store.repeats(first, tmp_path) == []
    stored = store.write_result(first, tmp_path)
    assert store.repeats(json.loads(json.dumps(first)), tmp_path) == [stored]
    other = json.loads(json.dumps(first))
    other["provenance"]["git_commit"] = "c2"
    assert store.repeats(other, tmp_path) == []
