"""The rules that keep a recipe a data file (tuninglab/safety/), on their own: JVM options,
PostgreSQL values against a pg_settings sample of the db image, and WildFly operations
against a small management-model description."""
from __future__ import annotations

from pathlib import Path

import pytest

from tuninglab.jboss_cli import parse_text
from tuninglab.safety import jvm_options, postgresql, server_model

DATA = Path(__file__).parent / "data"


# --------------------------------------------------------------------------- JVM options

def test_options_reach_the_eval_as_text():
    """The issue's probe, had it got past the preflight: single-quoted for standalone.sh's
    eval, so the JVM would see it as it is and no command would run."""
    probe = "-Dlab.probe=$(id${IFS}-un)@$(hostname)"
    assert jvm_options.for_eval(f"-Xmx1g {probe}") == f"-Xmx1g '{probe}'"
    assert jvm_options.problems(f"-Xmx1g {probe}")


def test_ordinary_options_are_passed_unchanged():
    options = "-Xms1g -Xmx1g -XX:+UseG1GC -XX:CICompilerCount=3 -Djava.net.preferIPv4Stack=true"
    assert jvm_options.problems(options) == []
    assert jvm_options.for_eval(options) == options


@pytest.mark.parametrize("token", ["-Djboss.bind.address=0.0.0.0",
                                   "-Djboss.bind.address.management=1.2.3.4",
                                   "-XX:+OnError", "-XX:OnError=x", "-agentlib:jdwp=x"])
def test_refused_options(token):
    assert "is refused" in jvm_options.problems(token)[0]


def test_a_property_that_only_starts_like_a_refused_one_passes():
    assert jvm_options.problems("-Djboss.bind.addressbook=1") == []


# --------------------------------------------------------------------------- PostgreSQL

@pytest.fixture(scope="module")
def pg():
    return postgresql.parse_settings_table((DATA / "pg_settings_sample.tsv").read_text())


@pytest.mark.parametrize("name, value", [
    ("work_mem", "64MB"), ("work_mem", "1TB"), ("shared_buffers", "128MB"),
    ("synchronous_commit", "off"), ("synchronous_commit", "true"), ("fsync", "on"),
    ("random_page_cost", "1.1"), ("checkpoint_timeout", "5min"), ("checkpoint_timeout", "1d"),
    ("vacuum_cost_delay", "2ms"), ("work_mem", "0x100000")])
def test_values_postgresql_accepts(pg, name, value):
    assert postgresql.value_problem(name, value, pg[name]) is None


@pytest.mark.parametrize("name, value, needle", [
    ("work_mem", "abc", "not a number"), ("work_mem", "10s", "unit 's'"),
    ("work_mem", "32", "out of range"), ("shared_buffers", "64kB", "out of range"),
    ("synchronous_commit", "maybe", "local, remote_write"), ("fsync", "si", "not a boolean"),
    ("random_page_cost", "-1", "out of range"), ("checkpoint_timeout", "10", "30 to 86400"),
    ("checkpoint_timeout", "1.5", "not an integer")])
def test_values_postgresql_refuses(pg, name, value, needle):
    assert needle in postgresql.value_problem(name, value, pg[name])


def test_the_prompt_of_single_user_mode_is_not_a_parameter():
    table = postgresql.parse_settings_table("backend> fsync\tbool\t\t\t\t\tsighup\n")
    assert list(table) == ["fsync"]


@pytest.mark.parametrize("name", ["archive_command", "restore_command", "my_new_command",
                                  "shared_preload_libraries", "listen_addresses", "include"])
def test_refused_parameters(name):
    assert postgresql.refused(name)


def test_tuning_parameters_are_not_refused():
    assert not any(postgresql.refused(n) for n in ("work_mem", "archive_mode", "commit_delay"))


# --------------------------------------------------------------------------- WildFly

# A description as :read-resource-description(recursive=true) gives it, cut to three types.
DESCRIPTION = {"attributes": {}, "children": {
    "subsystem": {"model-description": {
        "datasources": {"attributes": {}, "children": {"data-source": {"model-description": {
            "*": {"attributes": {
                "max-pool-size": {"type": {"TYPE_MODEL_VALUE": "INT"}, "access-type": "read-write",
                                  "min": 0, "max": 2147483647},
                "enabled": {"type": {"TYPE_MODEL_VALUE": "BOOLEAN"}, "access-type": "read-write"},
                "flush-strategy": {"type": {"TYPE_MODEL_VALUE": "STRING"},
                                   "access-type": "read-write",
                                   "allowed": ["FailingConnectionOnly", "AllConnections"]},
                "jndi-name": {"type": {"TYPE_MODEL_VALUE": "STRING"}, "access-type": "read-only"}},
                "children": {}}}}}}}},
    "system-property": {"model-description": {"*": {"attributes": {
        "value": {"type": {"TYPE_MODEL_VALUE": "STRING"}, "access-type": "read-write"}}}}}}}
MODEL = server_model.compact_description(DESCRIPTION)


def _problem(line: str):
    return server_model.model_problem(parse_text(line, "change.cli")[0], MODEL, "standalone.xml")


def test_a_known_attribute_with_a_good_value_passes():
    assert _problem("/subsystem=datasources/data-source=OrderDS:write-attribute("
                    "name=max-pool-size,value=40)") is None
    assert _problem("/system-property=tl.app.x:add(value=1)") is None
    assert _problem("/subsystem=datasources/data-source=OrderDS:write-attribute("
                    "name=max-pool-size,value=${env.POOL:20})") is None


@pytest.mark.parametrize("line, needles", [
    ("/subsystem=datasources/data-source=OrderDS:write-attribute(name=max-pool-sise,value=40)",
     ["change.cli:1", "no attribute 'max-pool-sise'", "did you mean max-pool-size"]),
    ("/subsystem=datasources/data-source=OrderDS:write-attribute(name=max-pool-size,value=big)",
     ["not an integer"]),
    ("/subsystem=datasources/data-source=OrderDS:write-attribute(name=max-pool-size,value=-1)",
     ["out of range", "0 to 2147483647"]),
    ("/subsystem=datasources/data-source=OrderDS:write-attribute(name=enabled,value=1)",
     ["not a boolean"]),
    ("/subsystem=datasources/data-source=OrderDS:write-attribute(name=flush-strategy,value=Some)",
     ["AllConnections"]),
    ("/subsystem=datasources/data-source=OrderDS:write-attribute(name=jndi-name,value=x)",
     ["read-only"]),
    ("/subsystem=messaging/server=default:write-attribute(name=x,value=1)",
     ["not a resource type of standalone.xml"]),
    ("/system-property=tl.app.x:add(valeu=1)", ["no attribute 'valeu'"]),
], ids=["misspelt", "not an int", "below the minimum", "not a boolean", "not allowed",
        "read-only", "no such subsystem", "misspelt add parameter"])
def test_what_the_model_refuses(line, needles):
    problem = _problem(line)
    assert problem is not None
    for needle in needles:
        assert needle in problem, (needle, problem)


def test_protected_and_free_addresses():
    refused = parse_text("/interface=public:write-attribute(name=inet-address,value=x)", "c")[0]
    allowed = parse_text("/subsystem=undertow/server=default-server/http-listener=default:"
                         "write-attribute(name=max-connections,value=9)", "c")[0]
    assert "refused" in server_model.protected_problem(refused)
    assert server_model.protected_problem(allowed) is None
