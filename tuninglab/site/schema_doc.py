"""The reference pages generated from code: the recipe format from the published JSON Schema
(one table per object, in TOML's own notation: [source], [profiles.full], ...), and the result
file's keys from ``result.KEYS``."""
from __future__ import annotations

import json

from .text import cell, code

__all__ = ["render", "render_result_keys", "render_profiles"]


def render_profiles(page: str) -> str:
    """The measurement profiles' defaults, one row per key, read from tuninglab/profiles.toml
    (the file the engine reads), so the Method page cannot state other numbers."""
    import dataclasses

    from ..recipe import Profile, profile_defaults
    profiles = profile_defaults()
    names = list(profiles)
    keys = list(dict.fromkeys(k for table in profiles.values() for k in table))
    # A key a profile leaves out takes the engine's own default (recipe.Profile).
    engine = {f.name: f.default for f in dataclasses.fields(Profile)
              if f.default is not dataclasses.MISSING}
    depth = page.count("/")
    link = "../" * depth + "reference/recipe-format.md"
    lines = [f"| key | {' | '.join(names)} |", "|---|" + "---|" * len(names)]
    for key in keys:
        values = [_profile_value(profiles[name].get(key, engine.get(key))) for name in names]
        lines.append(f"| `{key}` | {' | '.join(values)} |")
    lines += ["", f"From `tuninglab/profiles.toml`; a recipe states only the keys that differ "
                  f"(`[profiles.full]`), and the [recipe format]({link}) says what each key "
                  f"means."]
    return "\n".join(lines + [""])


def _profile_value(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"`{value}`" if isinstance(value, str) else str(value)


def render_result_keys() -> str:
    """One row per top-level key of a stored result (format 2), from ``result.KEYS``."""
    from ..result import FORMAT, KEYS
    lines = [f"Top-level keys of a result file (format {FORMAT}):", "",
             "| Key | What it holds |", "|---|---|"]
    lines += [f"| `{key}` | {cell(meaning)} |" for key, meaning in KEYS.items()]
    return "\n".join(lines + [""])


def render(schema: dict | None, *, schema_path: str = "tuninglab/recipe.schema.json") -> str:
    """The recipe format reference: one table per object of the JSON Schema.

    Without a schema the page gets a visible warning instead of a table, and the build goes on.
    """
    if not schema:
        return (
            '!!! warning "Schema not available"\n\n'
            f"    `{schema_path}` is missing or unreadable in this checkout, so the generated\n"
            "    reference is not shown. The annotated example below still applies.\n"
        )
    lines = []
    if schema.get("title") or schema.get("description"):
        lines.append(cell(schema.get("description") or schema.get("title")))
        lines.append("")
    for heading, node in _merged_objects(schema):
        lines.append(f"**{heading}**")
        lines.append("")
        if node.get("description") and node is not schema:
            lines.append(cell(node["description"]))
            lines.append("")
        lines.append("| Key | Type | Required | Meaning |")
        lines.append("|---|---|---|---|")
        required = set(node.get("required") or [])
        for key, prop in (node.get("properties") or {}).items():
            prop = _resolve(schema, prop)
            lines.append(
                f"| `{key}` | {_type(schema, prop)} | {'yes' if key in required else 'no'} "
                f"| {_meaning(prop)} |"
            )
        if node.get("additionalProperties") is False:
            lines.append("")
            lines.append("Other keys are rejected.")
        lines.append("")
    return "\n".join(lines)


def _merged_objects(schema: dict) -> list[tuple[str, dict]]:
    """(heading, node) per object; objects defined once and referenced from several keys
    (both profiles use #/$defs/profile) get one table under a joint heading."""
    merged: dict[str, list] = {}
    for heading, node, ref in _schema_objects(schema, schema, (), set()):
        key = ref or f"heading:{heading}"
        if key in merged:
            merged[key][0].append(heading)
        else:
            merged[key] = [[heading], node]
    return [(" and ".join(headings), node) for headings, node in merged.values()]


def _resolve(schema: dict, node: dict) -> dict:
    """Follow a local ``$ref`` ("#/$defs/name"); anything else is returned unchanged."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 10:
        ref = node["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#/"):
            break
        target = schema
        for part in ref[2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        merged = dict(target)
        merged.update({k: v for k, v in node.items() if k != "$ref"})
        node = merged
        seen += 1
    return node if isinstance(node, dict) else {}


def _schema_objects(schema: dict, node: dict, path: tuple, seen: set, array: bool = False):
    """Yield (heading, object node, $ref or None) depth-first for every object with properties.

    Headings use TOML's own notation: "Top level", "[source]", "[stack.app]", "[[trials]]".
    """
    key = id(node)
    ref = node.get("$ref") if isinstance(node, dict) else None
    # A shared definition is described by the definition itself, not by one place using it.
    node = _resolve(schema, {"$ref": ref} if ref else node)
    if key in seen or len(path) > 6:  # a recursive $ref stops here
        return
    seen.add(key)
    if node.get("properties"):
        if not path:
            heading = "Top level"
        else:
            dotted = ".".join(path)
            heading = f"[[{dotted}]]" if array else f"[{dotted}]"
        yield heading, node, ref
        for key, raw in node["properties"].items():
            prop = _resolve(schema, raw)
            if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
                yield from _schema_objects(schema, prop["items"], path + (key,), seen, True)
            else:
                yield from _schema_objects(schema, raw, path + (key,), seen)
            for alt in prop.get("oneOf", []) + prop.get("anyOf", []):
                yield from _schema_objects(schema, alt, path + (key,), seen)
            extra = prop.get("additionalProperties")
            if isinstance(extra, dict):
                yield from _schema_objects(schema, extra, path + (key, "<name>"), seen)


def _type(schema: dict, prop: dict) -> str:
    kind = prop.get("type")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array":
        items = _resolve(schema, prop.get("items") or {})
        inner = items.get("type") or ("table" if items.get("properties") else "value")
        return f"array of {'table' if inner == 'object' else inner}"
    if kind == "object":
        return "table"
    if kind:
        return kind
    for combiner in ("oneOf", "anyOf"):
        if prop.get(combiner):
            return " or ".join(_type(schema, _resolve(schema, alt)) for alt in prop[combiner])
    if "enum" in prop:
        kinds = {type(v).__name__ for v in prop["enum"]}
        names = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
        return " or ".join(sorted(names.get(k, k) for k in kinds))
    if "const" in prop:
        return "constant"
    return "any"


def _meaning(prop: dict) -> str:
    bits = []
    if prop.get("description"):
        bits.append(cell(prop["description"]))
    if "enum" in prop:
        bits.append("One of " + ", ".join(code(json.dumps(v)) for v in prop["enum"]) + ".")
    if "const" in prop:
        bits.append(f"Always {code(json.dumps(prop['const']))}.")
    if "default" in prop:
        bits.append(f"Default {code(json.dumps(prop['default']))}.")
    limits = [
        ("minimum", "at least"), ("exclusiveMinimum", "above"), ("maximum", "at most"),
        ("minItems", "at least", "items"), ("maxItems", "at most", "items"),
    ]
    for item in limits:
        key, word = item[0], item[1]
        if key in prop:
            suffix = f" {item[2]}" if len(item) > 2 else ""
            bits.append(f"{word.capitalize()} {prop[key]}{suffix}.")
    if prop.get("pattern"):
        bits.append(f"Pattern {code(prop['pattern'])}.")
    return " ".join(bits) or "—"
