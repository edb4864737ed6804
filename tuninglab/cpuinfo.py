"""A machine's CPU model from its kernel's /proc/cpuinfo: this machine's read directly, another
host's through a container there (stack.Stack.hosts), since Docker's info does not give it."""
from __future__ import annotations

import platform

__all__ = ["model", "this_machine"]

# x86 names the model in "model name"; arm64 kernels give no name, only "CPU implementer" and
# "CPU part" numbers, which are stored as they are rather than looked up.
_KEYS = ("model name", "Hardware", "cpu model", "Processor")


def model(cpuinfo: str) -> str:
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields.setdefault(key.strip(), value.strip())
    for key in _KEYS:
        if fields.get(key):
            return fields[key]
    if "CPU implementer" in fields:
        return f"implementer {fields['CPU implementer']}, part {fields.get('CPU part', '?')}"
    return "unknown"


def this_machine() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            found = model(f.read())
    except OSError:
        found = "unknown"
    return found if found != "unknown" else (platform.processor() or "unknown")
