"""A postgresql.conf fragment: switched in place on the one database before each trial.

The database is shared by the arms, so this kind does not get a node per level: the fragment
is written to (or removed from) conf.d, the server reloads or, when a setting needs it,
restarts, and the node's pool is flushed so every trial starts with connections that see the
new settings. The JVM is not touched, so it stays warm.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..plan import DATABASE, Arm
from .base import ChangeKind
from .checks import Check, require, same

FRAGMENT = "/etc/tuninglab/conf.d/50-recipe-change.conf"
BASELINE_FRAGMENT = "/etc/tuninglab/conf.d/10-recipe-baseline.conf"


def parse_pg_fragment(text: str, source: str) -> dict[str, str]:
    settings = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([a-z_.]+)\s*=\s*(.+)", line)
        if not match:
            raise ValueError(f"{source}:{number}: expected 'name = value', got '{raw.strip()}'")
        settings[match.group(1)] = match.group(2).strip().strip("'")
    if not settings:
        raise ValueError(f"{source}: no setting found")
    return settings


def apply_pg_fragment(stack, target: str, text: str | None) -> bool:
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


class PostgresConfChange(ChangeKind):
    name = "postgresql-conf"
    switch = DATABASE

    def __init__(self, recipe):
        super().__init__(recipe)
        self.template = self.change.file.read_text(encoding="utf-8")
        self.baseline_values: dict[str, str] = {}

    def text(self, arm: Arm) -> str | None:
        return self.substitute(self.template, arm) if self.applies(arm) else None

    def settings(self, arm: Arm) -> dict[str, str]:
        return parse_pg_fragment(self.substitute(self.template, arm), str(self.change.file))

    def check_arm(self, arm: Arm) -> None:
        self.settings(arm)

    def prepare(self, stack) -> list[Check]:
        """Record the baseline values and prove that each level alters its named settings
        and nothing else (apply, compare pg_settings, remove)."""
        names = {name for arm in self.arms for name in self.settings(arm)}
        self.baseline_values = {name: stack.db.setting(name) for name in names}
        before = stack.db.settings()
        checks = []
        levels = {a.level: a for a in self.arms if self.applies(a)}  # one arm per level
        for arm in levels.values():
            apply_pg_fragment(stack, FRAGMENT, self.text(arm))
            during = stack.db.settings()
            apply_pg_fragment(stack, FRAGMENT, None)
            differing = sorted(k for k in before if before.get(k) != during.get(k))
            stray = [k for k in differing if k not in self.settings(arm)]
            checks += [
                Check(f"{arm.label}: only the named settings differ", "none else",
                      ", ".join(stray) or "none else", not stray),
                Check(f"{arm.label}: the change alters {', '.join(self.settings(arm))}",
                      "a different value", ", ".join(differing) or "no setting changed "
                      "(PostgreSQL refused the value? see the database log)", bool(differing)),
            ]
        return require(checks, "preflight")

    def apply_arm(self, stack, node: str, arm: Arm, state=None) -> list[Check]:
        restarted = apply_pg_fragment(stack, FRAGMENT, self.text(arm))
        for datasource in stack.datasources():  # their connections reach the old server
            stack.management_of(node).execute(
                "flush-all-connection-in-pool", [("subsystem", "datasources"),
                                                 ("data-source", datasource)])
        checks = [Check(f"{arm.label}: database {'restarted' if restarted else 'reloaded'}, pool "
                        f"flushed", "done", "done", True)]
        for name, value in self.settings(arm).items():
            expected = value if self.applies(arm) else self.baseline_values[name]
            actual = stack.db.setting(name)
            checks.append(Check(f"PostgreSQL {name}", expected, actual, same(expected, actual)))
        return require(checks, arm.label)

    def describe(self, arm: Arm | None = None) -> str:
        if arm is not None and not self.applies(arm):
            return "the baseline"
        settings = parse_pg_fragment(self.template if arm is None else self.substitute(self.template, arm),
                                     str(self.change.file))
        return "postgresql-conf: " + ", ".join(f"{k} = {v}" for k, v in settings.items())


def read_fragment(path: Path) -> dict[str, str]:
    return parse_pg_fragment(path.read_text(encoding="utf-8"), str(path))
