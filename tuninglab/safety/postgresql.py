"""PostgreSQL parameters from a recipe: a value PostgreSQL would accept, for a parameter that
tunes the database rather than running a command, loading code or moving it off the stack.

Names are refused offline (``refused``); values are checked by type, unit and range against
the image's own pg_settings (``value_problem``), which the preflight reads once per image.
"""
from __future__ import annotations

import re

# Parameters refused by name, with why. No recipe kind measures these; a kind that did would
# start its own database for them.
REFUSED_PARAMETERS = {
    "archive_command": "runs a shell command for every WAL segment",
    "archive_cleanup_command": "runs a shell command on a standby",
    "restore_command": "runs a shell command to fetch WAL",
    "recovery_end_command": "runs a shell command at the end of recovery",
    "ssl_passphrase_command": "runs a shell command to read a key's passphrase",
    "archive_library": "loads a library (code) into the server",
    "shared_preload_libraries": "loads libraries (code) into the server",
    "session_preload_libraries": "loads libraries (code) into each session",
    "local_preload_libraries": "loads libraries (code) into each session",
    "dynamic_library_path": "changes where the server loads code from",
    "jit_provider": "loads a library (code) into the server",
    "listen_addresses": "takes the database off the stack's network",
    "port": "moves the database away from the port the application connects to",
    "unix_socket_directories": "moves the socket the lab's read-back connects through",
    "unix_socket_group": "changes who may use the lab's socket",
    "unix_socket_permissions": "changes who may use the lab's socket",
    "data_directory": "moves the database away from the lab's data",
    "config_file": "moves the configuration away from the lab's",
    "hba_file": "replaces who may connect",
    "ident_file": "replaces who may connect",
    "external_pid_file": "writes a file outside the data directory",
    "ssl": "needs certificates the image does not have; the database would not start",
    "logging_collector": "moves the server log out of the container's output, where errors "
                         "are read",
    "log_destination": "moves the server log out of the container's output, where errors "
                       "are read",
    "log_directory": "moves the server log out of the container's output",
    "log_filename": "moves the server log out of the container's output",
    # directives of postgresql.conf, not parameters
    "include": "reads another file into the configuration",
    "include_dir": "reads other files into the configuration",
    "include_if_exists": "reads another file into the configuration",
}
# Families refused by the end of their name.
REFUSED_SUFFIXES = {"_command": "runs a shell command", "_library": "loads code",
                    "_libraries": "loads code"}

# The columns the preflight reads from pg_settings, in this order (tab-separated).
COLUMNS = ("name", "vartype", "unit", "min_val", "max_val", "enumvals", "context")

_MEMORY_UNITS = {"B": 1, "kB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3, "TB": 1024 ** 4}
_TIME_UNITS = {"us": 0.001, "ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000}
_BOOLEANS = {"on", "off", "true", "false", "yes", "no", "1", "0", "t", "f", "y", "n"}
_NUMBER = re.compile(r"\s*(-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*"
                     r"([A-Za-z]*)\s*")


def refused(name: str) -> str | None:
    """Why a parameter is refused, or None."""
    if name in REFUSED_PARAMETERS:
        return REFUSED_PARAMETERS[name]
    for suffix, why in REFUSED_SUFFIXES.items():
        if name.endswith(suffix):
            return why
    return None


def parse_settings_table(text: str) -> dict[str, dict[str, str]]:
    """pg_settings rows (tab-separated, in COLUMNS order) by name."""
    table = {}
    for line in text.splitlines():
        fields = re.sub(r"^(backend>\s*)+", "", line).split("\t")  # single-user mode's prompt
        if len(fields) == len(COLUMNS):
            row = dict(zip(COLUMNS, fields))
            table[row["name"]] = row
    return table


def value_problem(name: str, value: str, row: dict[str, str]) -> str | None:
    """What PostgreSQL would refuse in ``value`` for the parameter ``row`` describes
    ("<what>; allowed: <what is>"), or None. Strings are PostgreSQL's to judge at run time."""
    kind = row["vartype"]
    text = value.strip()
    if kind == "bool":
        if text.lower() not in _BOOLEANS:
            return f"'{value}' is not a boolean; allowed: on, off, true, false, yes, no, 1, 0"
    elif kind == "enum":
        allowed = row["enumvals"].split(",")
        hidden = _BOOLEANS if {"on", "off"} <= set(allowed) else set()  # on/off enums take
        if text.lower() not in {a.lower() for a in allowed} | hidden:     # boolean spellings
            return f"'{value}' is not one of its values; allowed: {', '.join(allowed)}"
    elif kind in ("integer", "real"):
        return _number_problem(value, row)
    return None


def _number_problem(value: str, row: dict[str, str]) -> str | None:
    unit = row["unit"]
    units, base = _units_of(unit)
    allowed_range = f"{row['min_val']} to {row['max_val']}{(' in units of ' + unit) if unit else ''}"
    match = _NUMBER.fullmatch(value)
    if not match:
        return (f"'{value}' is not a number{' with a unit' if units else ''}; allowed: "
                f"{allowed_range}" + (f" (units: {', '.join(units)})" if units else ""))
    number_text, given = match.groups()
    number = float(int(number_text, 16)) if number_text.lower().startswith("0x") \
        else float(number_text)
    if row["vartype"] == "integer" and not given and number != int(number):
        return f"'{value}' is not an integer; allowed: {allowed_range}"
    if given:
        if given not in units:
            return (f"'{value}': unit '{given}' does not fit this parameter; allowed units: "
                    f"{', '.join(units) or 'none'}")
        number = number * units[given] / base
    low, high = float(row["min_val"]), float(row["max_val"])
    if not low <= round(number, 6) <= high:
        return f"'{value}' is out of range; allowed: {allowed_range}"
    return None


def _units_of(unit: str) -> tuple[dict[str, float], float]:
    """The units a parameter accepts and the size of its own unit in them ("8kB" -> 8192)."""
    match = re.fullmatch(r"(\d*)(\w+)", unit or "")
    if not match:
        return {}, 1.0
    count, name = int(match.group(1) or 1), match.group(2)
    for family in (_MEMORY_UNITS, _TIME_UNITS):
        if name in family:
            return family, count * family[name]
    return {}, 1.0
