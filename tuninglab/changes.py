"""Bring the running stack into one arm's configuration, and prove it.

Each change kind knows how to switch the stack to the baseline or the variant arm and how to
read the result back from the running system (management API, `SHOW`, the JVM's own input
arguments, docker's view of the container). Every trial starts with a switch, even to the arm
already in place, so every trial has the same history: a freshly reloaded (or restarted)
server, then warm-up, then the measured window.

A switch that does not read back as intended raises ChangeNotEffective: the run stops and
records nothing.
"""
from __future__ import annotations

import json
import re
import shlex
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from pathlib import Path

import requests

from . import jboss_cli
from .jboss_cli import Operation
from .management import ManagementError
from .recipe import Change, Recipe, Setup
from .stack import Stack, StackConfig

BASELINE, VARIANT = "baseline", "variant"
PG_FRAGMENT = "/etc/tuninglab/conf.d/50-recipe-change.conf"
PG_BASELINE_FRAGMENT = "/etc/tuninglab/conf.d/10-recipe-baseline.conf"


class ChangeNotEffective(RuntimeError):
    """The system does not read back what the recipe asked for: nothing may be measured."""


@dataclass(frozen=True)
class Check:
    what: str
    expected: str
    actual: str
    ok: bool

    def as_dict(self) -> dict:
        return asdict(self)


def require(checks: list[Check], context: str) -> list[Check]:
    failed = [c for c in checks if not c.ok]
    if failed:
        lines = "\n".join(f"  {c.what}: expected {c.expected}, read back {c.actual}" for c in failed)
        raise ChangeNotEffective(f"{context}: the change did not take effect:\n{lines}")
    return checks


def same(expected, actual) -> bool:
    """Compare a requested value with what the server reports (types differ: "20" vs 20)."""
    def norm(v):
        if isinstance(v, bool):
            return str(v).lower()
        if v is None:
            return "undefined"
        return str(v).strip().strip("'\"").lower()
    return norm(expected) == norm(actual)


# ---------------------------------------------------------------------------------------------
# reading back what the app itself sees (GET /api/config)

def app_config(stack: Stack) -> dict:
    url = stack.app.app_url() + "/orderentry/api/config"
    try:
        reply = requests.get(url, timeout=10)
        reply.raise_for_status()
        return reply.json()
    except (requests.RequestException, ValueError) as exc:
        raise ChangeNotEffective(f"the app did not answer {url}: {exc}") from exc


def app_view_of_property(config: dict, name: str):
    """Where /api/config reports a tl.* system property (see apps/orderentry/API.md)."""
    mapping = {
        "tl.jpa.shared_cache_mode": ("hibernate", "shared_cache_mode"),
    }
    if name in mapping:
        section, key = mapping[name]
    else:
        _, section, key = name.split(".", 2)
    return config.get(section, {}).get(key, "missing")


# ---------------------------------------------------------------------------------------------
# jboss-cli operations: apply, undo, read back

@dataclass
class RecordedOperation:
    """An operation of a change file with the baseline state it replaces."""
    op: Operation
    defined_before: object = None   # explicitly configured value before (None: undefined)
    effective_before: object = None  # value in effect before (defaults included)


def _apply(stack: Stack, op: Operation) -> None:
    m = stack.management
    if op.name == "add":
        m.execute("add", list(op.address), **op.params)
    elif op.name == "write-attribute":
        m.execute("write-attribute", list(op.address), name=op.params["name"], value=op.params["value"])
    elif op.name == "undefine-attribute":
        m.execute("undefine-attribute", list(op.address), name=op.params["name"])


def _undo(stack: Stack, rec: RecordedOperation) -> None:
    m, op = stack.management, rec.op
    if op.name == "add":
        if m.resource_exists(list(op.address)):
            m.execute("remove", list(op.address))
    elif rec.defined_before is None:
        m.execute("undefine-attribute", list(op.address), name=op.params["name"])
    else:
        m.execute("write-attribute", list(op.address), name=op.params["name"],
                  value=rec.defined_before)


def _read_back(stack: Stack, op: Operation, arm_wants_change: bool,
               rec: RecordedOperation | None) -> list[Check]:
    m, where = stack.management, op.address_text
    if op.name == "add":
        exists = m.resource_exists(list(op.address))
        checks = [Check(f"{where} exists", str(arm_wants_change).lower(), str(exists).lower(),
                        exists == arm_wants_change)]
        if exists and arm_wants_change:
            resource = m.read_resource(list(op.address))
            for key, value in op.params.items():
                checks.append(Check(f"{where} {key}", str(value), str(resource.get(key)),
                                    same(value, resource.get(key))))
        return checks
    name = op.params["name"]
    actual = m.read_attribute(list(op.address), name)
    if not arm_wants_change:
        expected = rec.effective_before
    elif op.name == "write-attribute":
        expected = op.params["value"]
    else:  # undefine-attribute: back to the default
        expected = m.read_attribute(list(op.address), name)
    return [Check(f"{where} {name}", str(expected), str(actual), same(expected, actual))]


# Management attributes whose effect the app observes and reports in /api/config (API.md).
# The model can hold a value that is not yet in force; the app's answer proves it is.
APP_OBSERVED_ATTRIBUTES = {
    ((("subsystem", "ejb3"),), "in-vm-remote-interface-invocation-pass-by-value"):
        ("ejb", "in_vm_remote_pass_by_value"),
}


def _app_observed(op: Operation) -> tuple[str, str] | None:
    if op.name not in ("write-attribute", "undefine-attribute"):
        return None
    return APP_OBSERVED_ATTRIBUTES.get((op.address, op.params["name"]))


def _app_checks(stack: Stack, ops: list[Operation], arm_wants_change: bool,
                records: dict[int, RecordedOperation]) -> list[Check]:
    """tl.* system properties, and attributes the app observes, must also be what the running
    app reports."""
    props = [op for op in ops if op.address and op.address[0][0] == "system-property"
             and op.address[0][1].startswith("tl.")]
    observed = [(op, seen) for op in ops if (seen := _app_observed(op))]
    if not props and not observed:
        return []
    config = app_config(stack)
    checks = []
    for op in props:
        name = op.address[0][1]
        actual = app_view_of_property(config, name)
        if arm_wants_change:
            expected = op.params.get("value")
        else:
            before = records[id(op)].defined_before if id(op) in records else None
            if before is None:
                checks.append(Check(f"app sees {name}", "its default", str(actual), actual != "missing"))
                continue
            expected = before
        checks.append(Check(f"app sees {name}", str(expected), str(actual), same(expected, actual)))
    for op, (section, key) in observed:
        actual = config.get(section, {}).get(key, "missing")
        if arm_wants_change and op.name == "write-attribute":
            expected = op.params["value"]
        else:  # the baseline, or a change back to the default: what the model now holds
            expected = stack.management.read_attribute(list(op.address), op.params["name"])
        checks.append(Check(f"app observes {section}.{key}", str(expected), str(actual),
                            same(expected, actual)))
    return checks


def _record(stack: Stack, ops: list[Operation]) -> dict[int, RecordedOperation]:
    m, records = stack.management, {}
    for op in ops:
        rec = RecordedOperation(op)
        if op.name == "add":
            if m.resource_exists(list(op.address)):
                raise ChangeNotEffective(
                    f"{op.where}: {op.address_text} already exists in the baseline; "
                    f"a change file may only add what the baseline does not have")
        else:
            name = op.params["name"]
            rec.defined_before = m.read_attribute(list(op.address), name, include_defaults=False)
            rec.effective_before = m.read_attribute(list(op.address), name)
        records[id(op)] = rec
    return records


def _model_differences(before, after, path="") -> list[str]:
    """Paths where two management-model trees differ (a resource that appears or disappears
    is reported at its own path, not at its parent's)."""
    if isinstance(before, dict) and after is None:
        after = {}
    if isinstance(after, dict) and before is None:
        before = {}
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for key in sorted(set(before) | set(after)):
            out += _model_differences(before.get(key), after.get(key), f"{path}/{key}")
        return out
    return [] if before == after else [path or "/"]


def _touched_prefixes(ops: list[Operation]) -> list[str]:
    prefixes = []
    for op in ops:
        base = "".join(f"/{k}/{v}" for k, v in op.address)
        prefixes.append(base if op.name == "add" else f"{base}/{op.params['name']}")
    return prefixes


# ---------------------------------------------------------------------------------------------
# the change kinds

class Switcher(ABC):
    """Puts the stack into an arm's configuration and returns the read-back checks."""

    def __init__(self, recipe: Recipe):
        self.recipe = recipe
        self.change: Change = recipe.change

    def prepare(self, stack: Stack) -> list[Check]:
        """Once, before the trials (after the baseline set-up)."""
        return []

    @abstractmethod
    def switch(self, stack: Stack, arm: str) -> list[Check]:
        ...

    def description(self) -> str:
        return self.change.kind

    def files(self) -> dict[str, str]:
        if self.change.file:
            return {self.change.file.name: self.change.file.read_text()}
        return {}


class NoChange(Switcher):
    """A/A calibration: both arms are the baseline; each trial still starts with a reload."""

    def switch(self, stack: Stack, arm: str) -> list[Check]:
        seconds = stack.management.reload()
        return [Check(f"{arm}: identical to the baseline (A/A), reloaded in {seconds:.1f} s",
                      "baseline", "baseline", True)]

    def description(self) -> str:
        return "none: the variant is the baseline (A/A calibration)"


class JbossCliChange(Switcher):
    def __init__(self, recipe: Recipe, ops: list[Operation] | None = None):
        super().__init__(recipe)
        self.ops = ops if ops is not None else jboss_cli.parse_file(self.change.file)
        self.records: dict[int, RecordedOperation] = {}

    def prepare(self, stack: Stack) -> list[Check]:
        """Record the baseline values, and prove on the configuration model that the change
        alters only what it names (apply, compare, undo, compare)."""
        self.records = _record(stack, self.ops)
        m = stack.management
        before = m.read_resource(recursive=True)
        for op in self.ops:
            _apply(stack, op)
        during = m.read_resource(recursive=True)
        for op in reversed(self.ops):
            _undo(stack, self.records[id(op)])
        after = m.read_resource(recursive=True)
        # Some attributes apply at runtime and leave services half-switched (in WildFly 39.0.1,
        # in-vm-remote-interface-invocation-pass-by-value restarts the deployment, whose
        # remote-view calls then fail until a reload); the warm-up must run the baseline as
        # it is after a clean start.
        m.reload()
        allowed = _touched_prefixes(self.ops)
        stray = [p for p in _model_differences(before, during)
                 if not any(p.startswith(a) for a in allowed)]
        leftover = _model_differences(before, after)
        changed = _model_differences(before, during)
        return require([
            Check("the change alters the configuration", "at least one difference",
                  f"{len(changed)} difference(s)", bool(changed)),
            Check("only the named settings differ between the arms", "none else",
                  ", ".join(stray) or "none else", not stray),
            Check("undoing the change restores the baseline exactly", "no difference",
                  ", ".join(leftover) or "no difference", not leftover),
        ], "preflight")

    def switch(self, stack: Stack, arm: str) -> list[Check]:
        wants = arm == VARIANT
        for op in self.ops:
            present = self._is_applied(stack, op)
            if wants and not present:
                _apply(stack, op)
            elif not wants and present:
                _undo(stack, self.records[id(op)])
        seconds = stack.management.reload()
        checks = [Check(f"{arm}: server reloaded", "running", f"running after {seconds:.1f} s", True)]
        for op in self.ops:
            checks += _read_back(stack, op, wants, self.records.get(id(op)))
        checks += _app_checks(stack, self.ops, wants, self.records)
        return require(checks, arm)

    def _is_applied(self, stack: Stack, op: Operation) -> bool:
        if op.name == "add":
            return stack.management.resource_exists(list(op.address))
        current = stack.management.read_attribute(list(op.address), op.params["name"],
                                                   include_defaults=False)
        if op.name == "undefine-attribute":
            return current is None
        return same(op.params["value"], current)

    def description(self) -> str:
        return "jboss-cli: " + "; ".join(str(op) for op in self.ops)


class AppPropertiesChange(JbossCliChange):
    """tl.* system properties that the app reads at deployment (see apps/orderentry/API.md)."""

    def __init__(self, recipe: Recipe):
        ops = [Operation((("system-property", k),), "add", {"value": v}, f"change.properties.{k}")
               for k, v in recipe.change.properties.items()]
        super().__init__(recipe, ops)

    def files(self) -> dict[str, str]:
        return {"properties": json.dumps(self.change.properties, indent=2)}


class JvmOptionsChange(Switcher):
    """The variant runs the app server with other JVM options: a restart per trial."""

    def options(self, arm: str) -> str:
        return self.change.jvm_options if arm == VARIANT else self.recipe.stack.jvm_options

    def switch(self, stack: Stack, arm: str) -> list[Check]:
        seconds = stack.restart_app(stack.config.with_changes(jvm_options=self.options(arm)))
        runtime = stack.management.read_resource(
            [("core-service", "platform-mbean"), ("type", "runtime")], runtime=True)
        arguments = runtime.get("input-arguments") or []
        checks = [Check(f"{arm}: app server restarted", "running", f"running after {seconds:.1f} s", True)]
        for token in shlex.split(self.options(arm)):
            checks.append(Check(f"JVM input argument {token}", "present",
                                "present" if token in arguments else "absent", token in arguments))
        other = set(shlex.split(self.options(VARIANT if arm == BASELINE else BASELINE)))
        for token in sorted(other - set(shlex.split(self.options(arm)))):
            checks.append(Check(f"JVM input argument {token}", "absent",
                                "present" if token in arguments else "absent", token not in arguments))
        return require(checks, arm)

    def description(self) -> str:
        return (f"jvm-options: '{self.recipe.stack.jvm_options}' -> "
                f"'{self.change.jvm_options}'")


class ContainerLimitsChange(Switcher):
    """Other CPU or memory limits for the app-server container: a restart per trial."""

    def config(self, stack: Stack, arm: str) -> StackConfig:
        base = stack.config.with_changes(
            app_cpus=None, app_memory=self.recipe.stack.app_memory,
            app_cpuset=self.recipe.stack.app_cpuset)
        if arm == BASELINE:
            return base
        limits = self.change.limits
        return base.with_changes(
            app_cpus=limits.app_cpus, app_memory=limits.app_memory or base.app_memory,
            app_cpuset=limits.app_cpuset or base.app_cpuset)

    def switch(self, stack: Stack, arm: str) -> list[Check]:
        wanted = self.config(stack, arm)
        seconds = stack.restart_app(wanted)
        host_config = stack.app.get_wrapped_container().attrs["HostConfig"]
        nano = host_config.get("NanoCpus") or 0
        checks = [
            Check(f"{arm}: app server restarted", "running", f"running after {seconds:.1f} s", True),
            Check("container CPU quota", str(wanted.app_cpus or 0), str(nano / 1e9),
                  abs((wanted.app_cpus or 0) - nano / 1e9) < 1e-6),
            Check("container cpuset", wanted.app_cpuset, host_config.get("CpusetCpus", ""),
                  wanted.app_cpuset == host_config.get("CpusetCpus", "")),
            Check("container memory limit (bytes)", str(_bytes(wanted.app_memory)),
                  str(host_config.get("Memory")), _bytes(wanted.app_memory) == host_config.get("Memory")),
        ]
        return require(checks, arm)


def _bytes(size: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kmg]?)b?", size.lower()).groups()
    return int(number) * {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}[unit]


# ---------------------------------------------------------------------------------------------
# PostgreSQL configuration fragments

def parse_pg_fragment(path: Path) -> dict[str, str]:
    settings = {}
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([a-z_.]+)\s*=\s*(.+)", line)
        if not match:
            raise ValueError(f"{path}:{number}: expected 'name = value', got '{raw.strip()}'")
        settings[match.group(1)] = match.group(2).strip().strip("'")
    if not settings:
        raise ValueError(f"{path}: no setting found")
    return settings


def apply_pg_fragment(stack: Stack, target: str, text: str | None) -> bool:
    """Write (or remove, text None) a fragment in conf.d and reload; restart when a setting
    needs it. Returns whether the database was restarted."""
    if text is None:
        stack.db.run(["rm", "-f", target])
    else:
        stack.db.put_file(target, text)
    stack.db.reload_config()
    if stack.db.pending_restart():
        stack.db.restart()
        return True
    return False


class PostgresConfChange(Switcher):
    def __init__(self, recipe: Recipe):
        super().__init__(recipe)
        self.settings = parse_pg_fragment(self.change.file)
        self.baseline_values: dict[str, str] = {}

    def prepare(self, stack: Stack) -> list[Check]:
        self.baseline_values = {name: stack.db.setting(name) for name in self.settings}
        before = stack.db.settings()
        apply_pg_fragment(stack, PG_FRAGMENT, self.change.file.read_text())
        during = stack.db.settings()
        apply_pg_fragment(stack, PG_FRAGMENT, None)
        differing = sorted(k for k in before if before.get(k) != during.get(k))
        stray = [k for k in differing if k not in self.settings]
        return require([
            Check("only the named settings differ between the arms", "none else",
                  ", ".join(stray) or "none else", not stray),
            Check(f"the change alters {', '.join(self.settings)}", "a different value",
                  ", ".join(differing) or "no setting changed (PostgreSQL refused the value? "
                  "see the database log)", bool(differing)),
        ], "preflight")

    def description(self) -> str:
        return "postgresql-conf: " + ", ".join(f"{k} = {v}" for k, v in self.settings.items())

    def switch(self, stack: Stack, arm: str) -> list[Check]:
        text = self.change.file.read_text() if arm == VARIANT else None
        restarted = apply_pg_fragment(stack, PG_FRAGMENT, text)
        seconds = stack.management.reload()  # fresh pool connections see the new settings
        checks = [Check(f"{arm}: database {'restarted' if restarted else 'reloaded'}, app server "
                        f"reloaded in {seconds:.1f} s", "running", "running", True)]
        for name, value in self.settings.items():
            expected = value if arm == VARIANT else self.baseline_values[name]
            actual = stack.db.setting(name)
            checks.append(Check(f"PostgreSQL {name}", expected, actual, same(expected, actual)))
        return require(checks, arm)


# ---------------------------------------------------------------------------------------------

SWITCHERS = {
    "none": NoChange,
    "jboss-cli": JbossCliChange,
    "app-properties": AppPropertiesChange,
    "jvm-options": JvmOptionsChange,
    "container-limits": ContainerLimitsChange,
    "postgresql-conf": PostgresConfChange,
}


def switcher_for(recipe: Recipe) -> Switcher:
    return SWITCHERS[recipe.change.kind](recipe)


def apply_baseline(stack: Stack, setup: Setup) -> list[Check]:
    """The recipe's baseline set-up, applied once to both arms and read back."""
    ops: list[Operation] = []
    if setup.cli:
        ops += jboss_cli.parse_file(setup.cli)
    ops += [Operation((("system-property", k),), "add", {"value": v}, f"baseline.properties.{k}")
            for k, v in setup.properties.items()]
    checks: list[Check] = []
    if setup.pg_conf:
        apply_pg_fragment(stack, PG_BASELINE_FRAGMENT, setup.pg_conf.read_text())
        for name, value in parse_pg_fragment(setup.pg_conf).items():
            actual = stack.db.setting(name)
            checks.append(Check(f"baseline PostgreSQL {name}", value, actual, same(value, actual)))
    if ops:
        for op in ops:
            try:
                _apply(stack, op)
            except ManagementError as exc:
                raise ChangeNotEffective(f"{op.where}: {exc}") from exc
        stack.management.reload()
        for op in ops:
            checks += _read_back(stack, op, True, None)
        checks += _app_checks(stack, ops, True, {})
    return require(checks, "baseline")
