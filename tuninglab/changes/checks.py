"""What a read-back found: one Check per setting, and the rule that a failed check stops the run."""
from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["Check", "ChangeNotEffective", "require", "same", "argument_checks"]


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


def argument_checks(what: str, arguments, mine: list[str], others: set[str]) -> list[Check]:
    """A JVM's arguments as an arm asks: each of ``mine`` present, and each option only another
    arm has (``others`` minus ``mine``) absent. ``what`` names the arguments ("JVM input
    argument"). Shared by the server's and the client's JVM options."""
    def check(token, expected):
        found = "present" if token in arguments else "absent"
        return Check(f"{what} {token}", expected, found, found == expected)
    return ([check(token, "present") for token in mine]
            + [check(token, "absent") for token in sorted(others - set(mine))])
