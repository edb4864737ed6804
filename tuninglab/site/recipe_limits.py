"""The ``<!-- recipe-limits -->`` block of the security page: what a recipe may not do, printed
from the very lists the preflight checks (tuninglab/safety/), so the page cannot promise what
the code does not hold."""
from __future__ import annotations

from ..jboss_cli import ALLOWED_HEADERS, ALLOWED_OPERATIONS
from ..recipe import MAX_RECIPE_BYTES
from ..safety import jvm_options, postgresql, server_model


def render() -> str:
    return "\n".join([*_jvm(), "", *_postgresql(), "", *_server(), "", *_files()])


def _table(header: tuple[str, str], rows) -> list[str]:
    return [f"| {header[0]} | {header[1]} |", "|---|---|",
            *(f"| `{name}` | {why} |" for name, why in rows)]


def _jvm() -> list[str]:
    characters = " ".join("`` ` ``" if c == "`" else f"`{c}`"
                          for c in jvm_options.SHELL_CHARACTERS)
    return ["### JVM options", "",
            "Every token must have one of these forms:", "",
            *_table(("form", "what it is"), jvm_options.ALLOWED_FORMS.items()), "",
            f"These characters are refused anywhere in the options: {characters}.", "",
            "These options are refused (a prefix stands for every option that starts with it):",
            "",
            *_table(("option", "why"), [*jvm_options.REFUSED_OPTIONS.items(),
                                         *jvm_options.REFUSED_PREFIXES.items()])]


def _postgresql() -> list[str]:
    families = ", ".join(f"`*{suffix}` ({why})"
                         for suffix, why in postgresql.REFUSED_SUFFIXES.items())
    return ["### PostgreSQL parameters", "",
            "Refused by name:", "",
            *_table(("parameter", "why"), postgresql.REFUSED_PARAMETERS.items()), "",
            f"Refused by the end of the name: {families}."]


def _server() -> list[str]:
    operations = ", ".join(f"`{name}`" for name in ALLOWED_OPERATIONS)
    headers = ", ".join(f"`{{{name}={'|'.join(values)}}}`"
                        for name, values in ALLOWED_HEADERS.items())
    rows = []
    for rule in server_model.protected_rules():
        what = ("everything at and below" if rule.attributes == server_model.EVERYTHING else
                ", ".join(f"`{a}`" for a in rule.attributes if a != server_model.ADDING)
                + (", adding one" if server_model.ADDING in rule.attributes else ""))
        rows.append((rule.address, f"{what}: {rule.why}"))
    return ["### WildFly management operations", "",
            f"A change file may use these operations only: {operations}; a line may end "
            f"with these operation headers only: {headers}.", "",
            "Refused on these addresses (`*` stands for any name):", "",
            *_table(("address", "what is refused, and why"), rows)]


def _files() -> list[str]:
    return ["### Recipe files", "",
            f"- `recipe.toml` at most {MAX_RECIPE_BYTES // 1024} KiB; a recipe folder that is a "
            f"symbolic link is refused, and so is one id in two areas.",
            "- The memory caps of a stack's nodes and its database together must fit the "
            "machine's memory."]
