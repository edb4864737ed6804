"""jboss-cli operations from a recipe: tune the server, never take it out of the lab's reach.

Two checks, both before any container of the run starts:

- ``protected_problem``: an operation on an address that carries the lab's own traffic or
  management (the HTTP listener the load uses, the ports, the management interface, the
  application's deployment and its connection to the database) is refused, with why;
- ``model_problem``: an operation is checked against the image's own management model (each
  resource type's attributes, their access, type, allowed values and range), read once per
  image and server configuration by the preflight, so a misspelt attribute is the recipe's
  error before anything is measured.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import apps
from ..jboss_cli import Operation

EVERYTHING = ("*",)  # every attribute and every resource below the address
ADDING = ":add"  # adding a resource of this type (beside its attribute names)


@dataclass(frozen=True)
class Protected:
    address: str  # jboss-cli form; "*" matches any name
    attributes: tuple[str, ...]  # EVERYTHING, or attribute names (and ADDING)
    why: str

    @property
    def elements(self) -> tuple[tuple[str, str], ...]:
        return tuple(tuple(e.split("=", 1)) for e in self.address.strip("/").split("/"))


PROTECTED = (
    Protected("/socket-binding-group=*", EVERYTHING,
              "the ports and addresses the load and the lab connect to"),
    Protected("/interface=*", EVERYTHING, "the addresses the listeners bind to"),
    Protected("/core-service=management", EVERYTHING,
              "the management interface the lab configures and reads back through"),
    Protected("/subsystem=elytron", EVERYTHING,
              "who may use the management interface the lab reads back through"),
    Protected("/deployment=*", EVERYTHING, "the application under test"),
    Protected("/path=*", EVERYTHING, "the server's directories"),
    Protected("/extension=*", EVERYTHING, "the server's modules (code it loads)"),
    Protected("/subsystem=undertow/server=*/http-listener=*", ("enabled", "socket-binding"),
              "the HTTP listener the load uses"),
    Protected("/subsystem=deployment-scanner/scanner=*", ("path", "relative-to", ADDING),
              "what the server deploys"),
)
# Of each data source the lab's own app declares (apps.default_app; the baseline defines it on
# every node): what makes it the
# connection the application's transactions take to the lab's database.
DATASOURCE_CONNECTION = ("connection-url", "jndi-name", "enabled", "driver-name", "user-name",
                         "password", ADDING)


def protected_rules() -> tuple[Protected, ...]:
    """PROTECTED, and the connection of each data source of the lab's own app."""
    return (*PROTECTED, *(Protected(f"/subsystem=datasources/data-source={name}",
                                    DATASOURCE_CONNECTION,
                                    "the connection the application's transactions take to "
                                    "the database")
                          for name in sorted(apps.default_app().datasources.values())))


def protected_problem(op: Operation) -> str | None:
    """Why ``op`` is refused ("<file:line>: ... ; allowed: ..."), or None."""
    for rule in protected_rules():
        if _covers(rule, op):
            what = ("anything at or below " + rule.address if rule.attributes == EVERYTHING
                    else f"{rule.address} ({', '.join(a for a in rule.attributes if a != ADDING)}"
                         f"{', or adding one' if ADDING in rule.attributes else ''})")
            return (f"{op.where}: '{op}' is refused: it changes {rule.why}; refused: {what}; "
                    f"allowed: the server's other resources and attributes (see the "
                    f"reference's security page)")
    return None


def _covers(rule: Protected, op: Operation) -> bool:
    pattern = rule.elements
    if len(op.address) < len(pattern) or not all(
            key == k and name in ("*", n) for (key, name), (k, n) in zip(pattern, op.address)):
        return False
    if rule.attributes == EVERYTHING:
        return True
    if len(op.address) != len(pattern):
        return False
    if op.name == "add":
        return ADDING in rule.attributes or bool(set(op.params) & set(rule.attributes))
    return op.params.get("name") in rule.attributes


# --------------------------------------------------------------------------- the model


def compact_description(description: dict) -> dict[str, dict]:
    """read-resource-description(recursive=true) as {address pattern: {attribute: facts}},
    the pattern in jboss-cli form with "*" for a wildcard registration ("/" is the root)."""
    found: dict[str, dict] = {}

    def walk(node: dict, path: str) -> None:
        attributes = {}
        for name, facts in (node.get("attributes") or {}).items():
            attributes[name] = {key: facts[key] for key in (
                "type", "access-type", "allowed", "min", "max", "nillable",
                "expressions-allowed") if key in facts}
            if isinstance(attributes[name].get("type"), dict):  # {"TYPE_MODEL_VALUE": "INT"}
                attributes[name]["type"] = next(iter(attributes[name]["type"].values()))
        found[path or "/"] = attributes
        for child_type, child in (node.get("children") or {}).items():
            for child_name, child_node in (child.get("model-description") or {}).items():
                if isinstance(child_node, dict):
                    walk(child_node, f"{path}/{child_type}={child_name}")
    walk(description, "")
    return found


def _pattern_for(model: dict[str, dict], address) -> str | None:
    """The registered pattern that describes a concrete address (a named registration before
    the wildcard one), or None when the server has no such resource type."""
    patterns = [""]
    for key, name in address:
        patterns = [p + f"/{key}={n}" for p in patterns for n in (name, "*")
                    if any(q == p + f"/{key}={n}" or q.startswith(p + f"/{key}={n}/")
                           for q in model)]
        if not patterns:
            return None
    return patterns[0] if patterns[0] in model else None


def model_problem(op: Operation, model: dict[str, dict], config: str) -> str | None:
    """What the server's model refuses in ``op``: an unknown resource type or attribute, a
    read-only one, a value of the wrong type or outside its allowed values or range."""
    pattern = _pattern_for(model, op.address)
    if pattern is None:
        return (f"{op.where}: {op.address_text} is not a resource type of {config} in this "
                f"image; allowed: an address of its management model")
    attributes = model[pattern]
    names = [op.params["name"]] if op.name != "add" else list(op.params)
    for name in names:
        if name not in attributes:
            near = sorted(a for a in attributes if a[:3] == name[:3])[:6]
            return (f"{op.where}: {op.address_text} has no attribute '{name}'"
                    + (f"; did you mean {', '.join(near)}?" if near else
                       f"; allowed: {', '.join(sorted(attributes)) or 'none'}"))
        facts = attributes[name]
        if op.name == "write-attribute" and facts.get("access-type", "read-write") != "read-write":
            return (f"{op.where}: {op.address_text}: '{name}' is {facts['access-type']}; "
                    f"allowed: read-write attributes")
        value = op.params.get("value") if op.name != "add" else op.params[name]
        problem = _value_problem(value, facts) if op.name != "undefine-attribute" else None
        if problem:
            return f"{op.where}: {op.address_text}: {name}: {problem}"
    return None


def _value_problem(value, facts: dict) -> str | None:
    if isinstance(value, str) and value.startswith("${"):
        return None  # an expression: resolved by the server
    kind = facts.get("type")
    if kind == "BOOLEAN" and not isinstance(value, bool):
        return f"'{value}' is not a boolean; allowed: true or false"
    if kind in ("INT", "LONG"):
        if isinstance(value, bool) or not isinstance(value, int):
            return f"'{value}' is not an integer"
        low, high = facts.get("min"), facts.get("max")
        if (low is not None and value < low) or (high is not None and value > high):
            return f"{value} is out of range; allowed: {low} to {high}"
    allowed = facts.get("allowed")
    if kind == "STRING" and allowed and str(value) not in [str(a) for a in allowed]:
        return f"'{value}' is not one of its values; allowed: {', '.join(map(str, allowed))}"
    return None
