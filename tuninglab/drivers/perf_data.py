"""A running JVM's own performance counters (HotSpot's hsperfdata file), read from outside it.

Every HotSpot JVM started with its default ``-XX:+UsePerfData`` keeps a shared-memory file,
``/tmp/hsperfdata_<user>/<pid>``, that jstat and jcmd read: named counters and strings such as
the arguments it was started with (``java.rt.vmArgs``) and the names of its collectors
(``sun.gc.collector.<n>.name``: "Serial young collection pauses", "G1 young collection
pauses", "Z concurrent cycle pauses"). The lab reads it to prove what a client JVM really
runs without asking the client's own code (a user's client jar reports nothing of the kind),
and without a JDK in the image (jcmd is not in the JRE).

The format is HotSpot's (src/hotspot/share/runtime/perfMemory.hpp): a 32-byte prologue (magic
0xcafec0c0, a byte order, the offset and count of the entries), then entries, each with its
length, the offset of its name, a vector length, a type ('J' a 64-bit number, 'B' bytes: a
string when it is a vector) and the offset of its data.
"""
from __future__ import annotations

import struct

__all__ = ["PerfDataError", "parse", "collectors", "COLLECTOR_OPTIONS"]

MAGIC = b"\xca\xfe\xc0\xc0"
PROLOGUE = 32
ENTRY_HEADER = 20

# The collector an option selects, as the JVM names its collectors in the counters: the first
# word of every sun.gc.collector.<n>.name, read on the java-client image's JDK 21 ("Serial
# young collection pauses"; ZGC's "Z concurrent cycle pauses", generational "ZGC minor
# collection pauses").
COLLECTOR_OPTIONS = {
    "-XX:+UseSerialGC": ("Serial",),
    "-XX:+UseParallelGC": ("Parallel",),
    "-XX:+UseG1GC": ("G1",),
    "-XX:+UseZGC": ("Z", "ZGC"),
    "-XX:+UseShenandoahGC": ("Shenandoah",),
}


class PerfDataError(ValueError):
    """Not a HotSpot performance-data file (or a truncated one)."""


def parse(data: bytes) -> dict[str, int | str]:
    """Every counter of the file by name: numbers as int, byte vectors as text."""
    if len(data) < PROLOGUE or data[:4] != MAGIC:
        raise PerfDataError("not a HotSpot performance-data file (no 0xcafec0c0 magic)")
    order = "<" if data[4] == 1 else ">"
    entry_offset, count = struct.unpack_from(order + "ii", data, 24)
    counters: dict[str, int | str] = {}
    offset = entry_offset
    for _ in range(count):
        if offset + ENTRY_HEADER > len(data):
            raise PerfDataError(f"entry at byte {offset} runs past the file's end")
        length, name_at, vector, kind, _flags, _units, _variability, data_at = \
            struct.unpack_from(order + "iiibbbbi", data, offset)
        if length <= 0:
            raise PerfDataError(f"entry at byte {offset} has length {length}")
        end = data.find(b"\0", offset + name_at)
        name = data[offset + name_at:end].decode("ascii", "replace")
        start = offset + data_at
        if kind == ord("J") and vector == 0:
            counters[name] = struct.unpack_from(order + "q", data, start)[0]
        elif kind == ord("B") and vector > 0:
            counters[name] = data[start:start + vector].split(b"\0", 1)[0].decode(
                "utf-8", "replace")
        offset += length
    return counters


def collectors(counters: dict) -> list[str]:
    """The JVM's collector names (sun.gc.collector.<n>.name, in order)."""
    names = sorted((int(key.split(".")[3]), value) for key, value in counters.items()
                   if key.startswith("sun.gc.collector.") and key.endswith(".name")
                   and key.split(".")[3].isdigit())
    return [value for _, value in names]
