"""WildFly's management model: apply a parsed jboss-cli operation, read it back, compare models.

An operation is applied through the HTTP management API of one node. Before anything is
applied, the values it will replace are recorded, so a node that does not get the change can
prove it still holds them, and the models of all nodes can be compared: after configuration
they may differ only where the change writes.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import requests

from ..apps import PROPERTY_NAME
from ..jboss_cli import Operation
from ..management import (BROKER, ManagementClient, ManagementError, apply_operation,
                          operation_headers)
from .checks import ChangeNotEffective, Check, same

__all__ = ["Recorded", "apply", "restore", "record", "read_back", "target", "model_differences",
           "touched_prefixes", "app_config", "app_checks"]


@dataclass
class Recorded:
    """An attribute an operation writes, as it was before anything was applied."""
    defined: object = None  # explicitly configured value (None: undefined)
    effective: object = None  # value in effect (defaults included)
    existed: bool = False  # for add: whether the resource existed


def target(op: Operation) -> tuple:
    """What an operation sets: an attribute of a resource, or a resource as a whole. Arms of a
    sweep write different values to the same target."""
    return (op.address, op.params.get("name")) if op.name != "add" else (op.address, None)


def without_attributes(op: Operation, targets: set) -> Operation:
    """An ``add`` without the attributes that other operations write (``targets``, as
    target() gives them); ``op`` itself when none of its attributes is among them."""
    if op.name != "add":
        return op
    params = {k: v for k, v in op.params.items() if (op.address, k) not in targets}
    return op if len(params) == len(op.params) else replace(op, params=params)


def record(m: ManagementClient, ops: list[Operation]) -> dict[tuple, Recorded]:
    """The state each operation will replace, keyed by its target."""
    out = {}
    for op in ops:
        if op.name == "add":
            out[target(op)] = Recorded(existed=m.resource_exists(list(op.address)))
        else:
            name = op.params["name"]
            out[target(op)] = Recorded(
                defined=m.read_attribute(list(op.address), name, include_defaults=False),
                effective=m.read_attribute(list(op.address), name))
    return out


def apply(m: ManagementClient, op: Operation):
    """Write the operation; returns the server's response (its headers say whether a reload
    is needed)."""
    if op.name not in ("add", "write-attribute", "undefine-attribute"):
        return None
    try:
        return apply_operation(m, op)
    except ManagementError as exc:
        raise ChangeNotEffective(f"{op.where}: {exc}") from exc


def restore(m: ManagementClient, op: Operation, before: Recorded | None):
    """Undo the operation: what it replaced, as ``record`` found it (a resource it added is
    removed; an attribute gets its recorded definition back, or none). Returns the response,
    or None when there was nothing to undo."""
    if before is None:
        raise ValueError(f"{op.where}: nothing recorded to restore")
    headers = operation_headers(op)  # undone as it was done
    try:
        if op.name == "add":
            if before.existed or not m.resource_exists(list(op.address)):
                return None
            return m.execute("remove", list(op.address), **headers)
        name = op.params["name"]
        if m.read_attribute(list(op.address), name, include_defaults=False) == before.defined:
            return None
        if before.defined is None:
            return m.execute("undefine-attribute", list(op.address), name=name, **headers)
        return m.execute("write-attribute", list(op.address), name=name, value=before.defined,
                         **headers)
    except ManagementError as exc:
        raise ChangeNotEffective(f"{op.where}: restoring the baseline: {exc}") from exc


def read_back(m: ManagementClient, op: Operation, applied: bool,
              before: Recorded | None) -> list[Check]:
    """Checks that ``op`` is in force (``applied``) or that the state it would replace is."""
    where = op.address_text
    if op.name == "add":
        exists = m.resource_exists(list(op.address))
        wanted = applied or bool(before and before.existed)
        checks = [Check(f"{where} exists", str(wanted).lower(), str(exists).lower(),
                        exists == wanted)]
        if exists and applied:
            resource = m.read_resource(list(op.address))
            for key, value in op.params.items():
                checks.append(Check(f"{where} {key}", str(value), str(resource.get(key)),
                                    same(value, resource.get(key))))
        return checks
    name = op.params["name"]
    actual = m.read_attribute(list(op.address), name)
    if not applied:
        expected = before.effective if before else actual
    elif op.name == "write-attribute":
        expected = op.params["value"]
    else:  # undefine-attribute: back to the default, which the model reports as in effect
        expected = m.read_attribute(list(op.address), name)
    return [Check(f"{where} {name}", str(expected), str(actual), same(expected, actual))]


def model_differences(before, after, path: str = "") -> list[str]:
    """Paths where two management-model trees differ (a resource that appears or disappears
    is reported at its own path, not at its parent's)."""
    if isinstance(before, dict) and after is None:
        after = {}
    if isinstance(after, dict) and before is None:
        before = {}
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for key in sorted(set(before) | set(after)):
            out += model_differences(before.get(key), after.get(key), f"{path}/{key}")
        return out
    return [] if before == after else [path or "/"]


# Attributes whose write the model also shows in another one: WildFly 39's ejb3 subsystem
# keeps a deprecated default-clustered-sfsb-cache that follows default-sfsb-cache (two nodes of
# ejb3-stateful-cache differed in both after the write, 5 December 2026), so a crossover's
# nodes differ there too, by the change alone.
MODEL_ALIASES = {
    "/subsystem/ejb3/default-sfsb-cache": ("/subsystem/ejb3/default-clustered-sfsb-cache",),
}


def touched_prefixes(ops: list[Operation]) -> list[str]:
    """Model paths an operation may change: its attribute (and the attributes that follow it,
    MODEL_ALIASES), or the resource it adds."""
    prefixes = []
    for op in ops:
        base = "".join(f"/{k}/{v}" for k, v in op.address)
        path = base if op.name == "add" else f"{base}/{op.params['name']}"
        prefixes += [path, *MODEL_ALIASES.get(path, ())]
    return prefixes


# ---------------------------------------------------------------------------------------------
# what the app itself sees (its config_endpoint in app.toml; the lab's own app: GET /api/config,
# its API.md)

# Management attributes whose effect the app observes and reports in /api/config. The model can
# hold a value that is not yet in force; the app's answer proves it is.
APP_OBSERVED_ATTRIBUTES = {
    ((("subsystem", "ejb3"),), "in-vm-remote-interface-invocation-pass-by-value"):
        ("ejb", "in_vm_remote_pass_by_value"),
}
# Where a property shows when the app does not report it: a server module in front of the app
# answers with what it ran in a response header (server-modules/debug-statements).
RESPONSE_HEADERS = "response headers"
PROPERTY_VIEWS = {"tl.jpa.shared_cache_mode": ("hibernate", "shared_cache_mode"),
                  "tl.debug_statements.style": (RESPONSE_HEADERS, "X-Debug-Statements")}
# What a tl.* property must make the app do, beyond reporting its value: (section, key, what
# the app must report for a value, the app's default value). The shared cache mode is proven
# by the cache itself: the app loads an Item and asks the second-level cache whether it holds
# it (ConfigService.secondLevelCacheWorks), since no single property says whether Hibernate
# caches.
PROPERTY_EFFECTS = {"tl.jpa.shared_cache_mode": (
    "hibernate", "second_level_cache", lambda mode: str(mode).upper() != "NONE", "NONE")}


def app_config(url: str) -> dict:
    """What the app's configuration endpoint (``url``) reports, with its response headers."""
    try:
        reply = requests.get(url, timeout=10)
        reply.raise_for_status()
        return {**reply.json(), RESPONSE_HEADERS: dict(reply.headers)}
    except (requests.RequestException, ValueError) as exc:
        raise ChangeNotEffective(f"the app did not answer {url}: {exc}") from exc


# A tl.* property the app reads is tl.<section>.<key>, reported by /api/config under its
# section (the lab's own app's API.md); the same rule as recipe.schema.json's for properties.
APP_PROPERTY = PROPERTY_NAME


def app_property_problem(op: Operation) -> str | None:
    """A tl.* system property that no app reads the way the lab reads it back, or None."""
    if not (op.address and op.address[0][0] == "system-property"
            and op.address[0][1].startswith("tl.")):
        return None
    name = op.address[0][1]
    if name in PROPERTY_VIEWS or APP_PROPERTY.fullmatch(name):
        return None
    return (f"{op.where}: system property '{name}': the app's properties are named "
            f"tl.<section>.<key> (the app's API.md lists them); allowed: e.g. "
            f"tl.hibernate.jdbc.batch_size, or a name without the tl. prefix")


def declared_property_problem(op: Operation, app) -> str | None:
    """A value outside what the app declares for one of its properties (its app.toml's
    [properties]: a whole number at least 1 for the consumer's sessions, a word from its list),
    or None."""
    if not (op.address and op.address[0][0] == "system-property"
            and op.name in ("add", "write-attribute") and "value" in op.params):
        return None
    name, fragment = op.address[0][1], app.properties.get(op.address[0][1])
    if fragment is None:
        return None
    text, kind = str(op.params["value"]), fragment["type"]
    if kind == "string":
        if text in fragment["enum"]:
            return None
        return (f"{op.where}: system property '{name}' = {text!r}; allowed: "
                f"{', '.join(fragment['enum'])} ({fragment['description']}; "
                f"apps/{app.name}/app.toml)")
    try:
        value = int(text) if kind == "integer" else float(text)
    except ValueError:
        value = None
    low, high = fragment.get("minimum"), fragment.get("maximum")
    if value is None or (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        article = "an" if kind == "integer" else "a"
        return (f"{op.where}: system property '{name}' = {text!r}; allowed: {article} {kind} "
                f"{bounds} ({fragment['description']}; apps/{app.name}/app.toml)")
    return None


# The embedded broker's destinations a recipe may address: the full configuration's own, and
# those the app's server set-up adds (apps.App.setup_operations).
DESTINATION_KINDS = ("jms-queue", "jms-topic")
SERVER_DESTINATIONS = ("ExpiryQueue", "DLQ")  # standalone-full.xml's jms-queues


def destination_problem(op: Operation, app) -> str | None:
    """An operation on a queue or topic the broker will not have, or None."""
    broker = tuple(BROKER)
    if (len(op.address) < 3 or op.address[:2] != broker or op.address[2][0] not in DESTINATION_KINDS
            or (len(op.address) == 3 and op.name == "add")):
        return None
    kind, name = op.address[2]
    created = {o.address[2][1] for o in app.setup_operations()
               if o.name == "add" and len(o.address) == 3 and o.address[:2] == broker
               and o.address[2][0] == kind}
    known = sorted({*SERVER_DESTINATIONS, *created} if kind == "jms-queue" else created)
    if name in known:
        return None
    return (f"{op.where}: {kind} '{name}': the broker has no such "
            f"destination; allowed: {', '.join(known) or 'none'} (the full configuration's and "
            f"apps/{app.name}/{app.server_setup or 'app.toml'}'s)")


def app_view_of_property(config: dict, name: str):
    """Where /api/config reports a tl.* system property."""
    section, key = PROPERTY_VIEWS.get(name) or name.split(".", 2)[1:]
    return config.get(section, {}).get(key, "missing")


def _observed(op: Operation):
    if op.name not in ("write-attribute", "undefine-attribute"):
        return None
    return APP_OBSERVED_ATTRIBUTES.get((op.address, op.params["name"]))


def _effect_checks(config: dict, name: str, value) -> list[Check]:
    """The app does what the property's value means (PROPERTY_EFFECTS); None: its default."""
    if name not in PROPERTY_EFFECTS:
        return []
    section, key, effect, default = PROPERTY_EFFECTS[name]
    expected = effect(default if value is None else value)
    actual = config.get(section, {}).get(key, "missing")
    return [Check(f"app's {section}.{key} with {name}={default if value is None else value}",
                  str(expected), str(actual), actual == expected)]


def app_checks(m: ManagementClient, config_url: str, ops: list[Operation], applied: bool,
               before: dict[str, Recorded]) -> list[Check]:
    """tl.* system properties, and attributes the app observes, must also be what the running
    app reports at ``config_url``."""
    props = [op for op in ops if op.address and op.address[0][0] == "system-property"
             and op.address[0][1].startswith("tl.")]
    observed = [(op, seen) for op in ops if (seen := _observed(op))]
    if not props and not observed:
        return []
    config = app_config(config_url)
    checks = []
    for op in props:
        name = op.address[0][1]
        actual = app_view_of_property(config, name)
        if applied:
            expected = op.params.get("value")
        else:
            rec = before.get(target(op))
            if rec is None or not rec.existed:
                checks.append(Check(f"app sees {name}", "its default", str(actual),
                                    actual != "missing"))
                checks += _effect_checks(config, name, None)
                continue
            expected = m.read_attribute(list(op.address), "value")
        checks.append(Check(f"app sees {name}", str(expected), str(actual), same(expected, actual)))
        checks += _effect_checks(config, name, expected)
    for op, (section, key) in observed:
        actual = config.get(section, {}).get(key, "missing")
        if applied and op.name == "write-attribute":
            expected = op.params["value"]
        else:  # not applied, or back to the default: what the model now holds
            expected = m.read_attribute(list(op.address), op.params["name"])
        checks.append(Check(f"app observes {section}.{key}", str(expected), str(actual),
                            same(expected, actual)))
    return checks
