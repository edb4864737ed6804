"""How numbers are written, everywhere: the terminal, notebooks and the site use these, so one
result reads the same in all three.

- relative deltas: ``+53.2 % [+41.0, +66.1]`` (the 95 % interval in brackets, a real minus);
- absolute deltas of shares (error rate, time in GC): percentage points, ``+0.12 pp``;
- an interval that is unbounded (fewer than two pairs): ``[unbounded]``;
- values with three to four significant digits and their unit: ``1,234 tx/s``, ``12.3 ms``.
"""
from __future__ import annotations

import math
from datetime import datetime, timezone

__all__ = ["MINUS", "fmt_delta", "fmt_interval", "fmt_value", "fmt_time", "fmt_pct",
           "unit_label", "is_share", "finite"]

MINUS = "\u2212"  # a real minus sign: it lines up with "+" in tables
_SHARE_UNITS = {"", "ratio", "fraction", "share", "1"}


def finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _sign(value: float) -> str:
    return "+" if value >= 0 else MINUS


def _num(value: float, decimals: int, signed: bool = False) -> str:
    text = f"{abs(value):,.{decimals}f}"
    if signed:
        return _sign(value) + text
    return (MINUS if value < 0 else "") + text


def _decimals(value: float) -> int:
    """Enough decimals for three to four significant digits, never more than three."""
    magnitude = abs(value)
    if magnitude >= 100:
        return 0 if magnitude >= 1000 else 1
    if magnitude >= 10:
        return 1
    if magnitude >= 0.1:
        return 2
    return 3


def is_share(unit: str | None, delta_kind: str | None) -> bool:
    """True for absolute deltas of shares (error rate, time in GC): shown in % and pp."""
    if delta_kind != "absolute":
        return False
    text = (unit or "").strip().lower()
    return text in _SHARE_UNITS or text.startswith(("fraction", "share", "ratio"))


def unit_label(unit: str | None, delta_kind: str | None = None) -> str:
    """The unit as a table shows it: shares become "% of ..." ("fraction of requests" ->
    "% of requests") because their values are shown in percent."""
    text = " ".join((unit or "").split())
    if is_share(unit, delta_kind):
        words = text.split(" ", 1)
        rest = words[1] if len(words) > 1 and words[0].lower() in ("fraction", "share", "ratio") else ""
        return f"% {rest}".rstrip() if rest else "%"
    return text or "—"


def fmt_value(value, unit: str | None = None, delta_kind: str | None = None, *,
              with_unit: bool = True) -> str:
    """A metric value: "1,234 tx/s", "12.3 ms", and shares in percent, "0.12 %"."""
    if not finite(value):
        return "—"
    value = float(value)
    if is_share(unit, delta_kind):
        pct = value * 100
        text = _num(pct, 2 if abs(pct) < 10 else 1)
        return f"{text} %" if with_unit else text
    text = _num(value, _decimals(value))
    unit = " ".join((unit or "").split())
    return f"{text} {unit}" if unit and with_unit else text


def fmt_interval(low, high, delta_kind: str = "relative", unit: str | None = None) -> str:
    """The bracketed interval in the delta's own scale: "[+41.0, +66.1]"."""
    if not (finite(low) and finite(high)):
        return "[unbounded]"
    scale = 100.0 if delta_kind != "absolute" or is_share(unit, delta_kind) else 1.0
    decimals = 1 if delta_kind != "absolute" else 2
    return f"[{_num(low * scale, decimals, True)}, {_num(high * scale, decimals, True)}]"


def fmt_delta(delta, low=None, high=None, delta_kind: str = "relative",
              unit: str | None = None) -> str:
    """A delta with its interval: "+53.2 % [+41.0, +66.1]", "+0.12 pp [−0.05, +0.30]"."""
    if not finite(delta):
        return "—"
    delta = float(delta)
    if delta_kind == "absolute":
        if is_share(unit, delta_kind):
            head = f"{_num(delta * 100, 2, True)} pp"
        else:
            word = (unit or "").strip()
            head = _num(delta, 2, True) + (f" {word}" if word and " " not in word else "")
    else:
        head = f"{_num(delta * 100, 1, True)} %"
    if low is None and high is None:
        return head
    return f"{head} {fmt_interval(low, high, delta_kind, unit)}"


def fmt_pct(value, decimals: int = 1) -> str:
    """A relative size without sign: "2.4 %" ("—" when unknown or unbounded)."""
    if not finite(value):
        return "—"
    return f"{_num(value * 100, decimals)} %"


def fmt_time(stamp: str | None) -> str:
    """An ISO time stamp as "2025-11-22 14:03 UTC"."""
    if not stamp:
        return "unknown date"
    try:
        moment = datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
    except ValueError:
        return str(stamp)
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%d %H:%M UTC")
