"""Read the subset of jboss-cli's language that recipes write their changes in.

A change file stays a real jboss-cli script (a reader can run it with `jboss-cli.sh --file=`),
but the lab executes it through the HTTP management API and, because each line is parsed into
an operation, can read every value back and undo it. Supported lines:

    # a comment
    /subsystem=io/worker=default:write-attribute(name=task-max-threads,value=16)
    /subsystem=undertow/server=default-server/http-listener=default:undefine-attribute(name=max-connections)
    /system-property=tl.hibernate.jdbc.batch_size:add(value=20)
    /subsystem=infinispan/cache-container=web/distributed-cache=dist:write-attribute(name=statistics-enabled,value=true){allow-resource-service-restart=true}

The last line's header asks the server to restart the services of the resource it writes (and
those that depend on them) instead of leaving the whole server waiting for a reload; the lab
then redeploys the node's apps. Anything
else (batch, if/else, reload, commands without an address) is rejected with the file,
the line and what is allowed: the lab reloads by itself when an operation requires it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

ALLOWED_OPERATIONS = ("write-attribute", "undefine-attribute", "add")
# Operation headers a line may end with ({name=value; ...}): only the one that lets the server
# restart a resource's services in place of a reload. On a cluster the nodes reload one after
# the other (two reloaded at once each form a view of their own), 4 to 5 s a node; a baseline
# that writes a cache's statistics with it needs no reload (tried 7 December 2026, WildFly 39).
# The node's apps are deployed again afterwards (changes/nodes.py): a deployment that uses a
# restarted service may be left broken (sessioncart failed every request until redeployed). Not
# always faster: the ejb container's distributed cache once took over 30 s to restart on one of
# three nodes (the write timed out), so ejb3-stateful-replication reloads instead.
ALLOWED_HEADERS = {"allow-resource-service-restart": ("true",)}  # values as written


class CliSyntaxError(ValueError):
    pass


@dataclass(frozen=True)
class Operation:
    address: tuple[tuple[str, str], ...]
    name: str
    params: dict = field(default_factory=dict)
    where: str = ""  # "file:line", for messages
    headers: dict = field(default_factory=dict)  # the operation headers its line ends with

    @property
    def address_text(self) -> str:
        return "/" + "/".join(f"{k}={v}" for k, v in self.address)

    def __str__(self) -> str:
        """The operation in jboss-cli syntax (booleans as the CLI writes them)."""
        def text(v):
            return str(v).lower() if isinstance(v, bool) else str(v)
        args = ",".join(f"{k}={text(v)}" for k, v in self.params.items())
        headers = "; ".join(f"{k}={text(v)}" for k, v in self.headers.items())
        return f"{self.address_text}:{self.name}({args})" + (f"{{{headers}}}" if headers else "")


def parse_file(path: Path) -> list[Operation]:
    return parse_text(path.read_text(), str(path))


def parse_text(text: str, source: str = "<cli>") -> list[Operation]:
    operations = []
    for number, line in _logical_lines(text):
        where = f"{source}:{number}"
        try:
            operations.append(_parse_line(line, where))
        except CliSyntaxError as exc:
            raise CliSyntaxError(f"{where}: {exc}") from None
    if not operations:
        raise CliSyntaxError(f"{source}: no operation found")
    return operations


def _logical_lines(text: str):
    """Yield (first line number, text) with comments dropped and `\\` continuations joined."""
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        yield start, pending + line
        pending = ""
    if pending:
        yield start, pending


def _parse_line(line: str, where: str) -> Operation:
    if not line.startswith("/"):
        raise CliSyntaxError(
            f"'{line}': only addressed operations are supported (e.g. "
            f"/subsystem=x:write-attribute(name=a,value=b)); the lab reloads by itself")
    colon = _find_top_level(line, ":")
    if colon < 0:
        raise CliSyntaxError(f"'{line}': missing ':operation'")
    address = _parse_address(line[:colon])
    rest, headers = _split_headers(line[colon + 1:].rstrip())
    paren = rest.find("(")
    name = (rest[:paren] if paren >= 0 else rest).strip()
    if name not in ALLOWED_OPERATIONS:
        raise CliSyntaxError(f"operation '{name}' is not supported; allowed: "
                             f"{', '.join(ALLOWED_OPERATIONS)}")
    params = {}
    if paren >= 0:
        if not rest.rstrip().endswith(")"):
            raise CliSyntaxError(f"'{line}': unbalanced parentheses")
        params = _parse_params(rest[paren + 1:rest.rstrip().rfind(")")])
    _check_params(name, params)
    return Operation(address, name, params, where, headers)


def _split_headers(rest: str) -> tuple[str, dict]:
    """The operation and its parameters, and the headers block it may end with."""
    if not rest.endswith("}"):
        return rest, {}
    start = rest.rfind("{")
    if start < 0:
        raise CliSyntaxError(f"'{rest}': unbalanced braces")
    allowed = ", ".join(f"{name}={'|'.join(values)}" for name, values in ALLOWED_HEADERS.items())
    headers = {}
    for item in rest[start + 1:-1].split(";"):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or value not in ALLOWED_HEADERS.get(key, ()):
            raise CliSyntaxError(f"operation header '{item.strip()}' is not supported; "
                                 f"allowed: {allowed}")
        headers[key] = _parse_value(value)
    return rest[:start].rstrip(), headers


def _check_params(name: str, params: dict) -> None:
    needed = {"write-attribute": {"name", "value"}, "undefine-attribute": {"name"}}.get(name, set())
    missing = needed - params.keys()
    if missing:
        raise CliSyntaxError(f"{name} needs {', '.join(sorted(missing))}")


def _parse_address(text: str) -> tuple[tuple[str, str], ...]:
    parts = []
    for element in _split_top_level(text.strip("/"), "/"):
        key, eq, value = element.partition("=")
        if not eq or not key or not value:
            raise CliSyntaxError(f"address element '{element}' is not type=name")
        parts.append((key.strip(), _unquote(value.strip())))
    return tuple(parts)


def _parse_params(text: str) -> dict:
    params = {}
    for item in _split_top_level(text, ","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        if not eq:
            raise CliSyntaxError(f"parameter '{item}' is not name=value")
        params[key.strip()] = _parse_value(value.strip())
    return params


def _parse_value(text: str):
    if text.startswith("[") and text.endswith("]"):
        return [_parse_value(v.strip()) for v in _split_top_level(text[1:-1], ",") if v.strip()]
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return text[1:-1].replace('\\"', '"')
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _unquote(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


def _find_top_level(text: str, char: str) -> int:
    depth, quoted = 0, False
    for i, c in enumerate(text):
        if c == '"':
            quoted = not quoted
        elif not quoted and c in "([{":
            depth += 1
        elif not quoted and c in ")]}":
            depth -= 1
        elif not quoted and depth == 0 and c == char:
            return i
    return -1


def _split_top_level(text: str, sep: str) -> list[str]:
    parts, start = [], 0
    while True:
        i = _find_top_level(text[start:], sep)
        if i < 0:
            parts.append(text[start:])
            return parts
        parts.append(text[start:start + i])
        start += i + 1
