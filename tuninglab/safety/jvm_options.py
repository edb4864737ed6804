"""JVM options from a recipe: JVM options and nothing else.

WildFly's standalone.sh starts the JVM with ``eval`` over JAVA_OPTS, so shell syntax in an
option would run in every node at every start. Two layers keep that from happening: the
preflight refuses anything that is not a JVM option (``problems``), and the node passes each
option to that ``eval`` single-quoted (``for_eval``), so whatever got past the first reaches
the JVM as text.
"""
from __future__ import annotations

import re
import shlex

# The option forms a recipe may use (HotSpot's own spellings).
ALLOWED_FORMS = {
    "-X<option>": "a non-standard option: heap (-Xms, -Xmx), stack (-Xss), logging (-Xlog:)",
    "-XX:<flag>": "a HotSpot flag: -XX:+Name, -XX:-Name or -XX:Name=value",
    "-D<name>=<value>": "a system property",
    "-verbose:<what>": "class, gc or jni logging",
    "-ea, -da, -esa, -dsa": "assertions",
    "--add-opens=, --add-exports=, --add-reads=, --add-modules=": "module access, in the = form",
}
_FORM = re.compile(r"-X[A-Za-z].*|-XX:.+|-D[A-Za-z_][\w.\-]*(=.*)?|-verbose:\w+|-[ed]s?a"
                   r"|--add-(opens|exports|reads|modules)=.+", re.DOTALL)

# Characters the shell acts on: command substitution, separators, redirections, escapes.
SHELL_CHARACTERS = "$`;|&<>()\\"

# Options of an allowed form that make the JVM run or load something, or move what the lab
# relies on, with why each is refused.
REFUSED_OPTIONS = {
    "-XX:OnError": "runs a shell command when the JVM crashes",
    "-XX:OnOutOfMemoryError": "runs a shell command when the heap is exhausted",
    "-XX:Flags": "reads further options from a file",
    "-XX:VMOptionsFile": "reads further options from a file",
    "-Djava.security.manager": "WildFly refuses to start with a security manager",
    "-Djboss.home.dir": "moves the server's installation away from the image's",
    "-Djboss.server.base.dir": "moves the server's configuration and data away from the lab's",
    "-Djboss.server.config.dir": "moves the server's configuration away from the lab's",
    "-Djboss.bind.address": "moves the listeners the load and the lab use",
    "-Djboss.socket.binding.port-offset": "moves every port the load and the lab use",
    "-Djboss.http.port": "moves the HTTP port the load uses",
    "-Djboss.management.http.port": "moves the management port the lab reads back through",
    "-Djboss.node.name": "set by the lab for each node of a cluster",
}
# Prefixes refused whatever follows: code loaded into the JVM, options read from a file.
REFUSED_PREFIXES = {
    "-javaagent:": "loads a Java agent (code) into the JVM",
    "-agentlib:": "loads a native agent (code) into the JVM",
    "-agentpath:": "loads a native agent (code) into the JVM",
    "@": "reads further options from a file",
}


def problems(options: str) -> list[str]:
    """What is wrong with a recipe's JVM options, each as "<what>; allowed: <what is>"; empty
    when every token is a JVM option the lab passes on."""
    shell = sorted({c for c in options if c in SHELL_CHARACTERS})
    if shell:
        return [f"shell syntax {' '.join(repr(c) for c in shell)} in '{options}'; allowed: JVM "
                f"options only (WildFly's start script evaluates them as shell, so these "
                f"characters are refused: {SHELL_CHARACTERS})"]
    try:
        tokens = shlex.split(options)
    except ValueError as error:
        return [f"{error} in '{options}'; allowed: options split as a shell would "
                f"(balanced quotes)"]
    found = []
    for token in tokens:
        refused = _refused(token)
        if refused:
            found.append(f"'{token}' {refused}; allowed: any other JVM option")
        elif not _FORM.fullmatch(token):
            found.append(f"'{token}' is not a JVM option; allowed: {', '.join(ALLOWED_FORMS)}")
    return found


def agent_problems(agent_options: str, allowed: tuple[str, ...],
                   file_options: tuple[str, ...]) -> list[str]:
    """What is wrong with the options of a lab-built agent (images.JVM_AGENTS): names of its
    own list only, and files it writes under /tmp of the node's container (not over the
    server's files). The agent's path is the lab's; the recipe writes only these."""
    shell = sorted({c for c in agent_options if c in SHELL_CHARACTERS or c.isspace()})
    if shell:
        return [f"{' '.join(repr(c) for c in shell)} in '{agent_options}'; allowed: the agent's "
                f"options as name or name=value, separated by commas"]
    found = []
    for item in agent_options.split(","):
        name, _, value = item.partition("=")
        if name not in allowed:
            found.append(f"'{name}' is not an option the lab passes to this agent; allowed: "
                         f"{', '.join(allowed)}")
        elif name in file_options and not re.fullmatch(r"/tmp/[\w.\-]+", value):
            found.append(f"{name}='{value}': the agent writes it; allowed: a file name under "
                         f"/tmp/ (e.g. /tmp/lab.jfr)")
    return found


def _refused(token: str) -> str | None:
    for prefix, why in REFUSED_PREFIXES.items():
        if token.startswith(prefix):
            return f"is refused: {why}"
    name = re.sub(r"^-XX:[+-]?", "-XX:", token).split("=", 1)[0]
    for refused, why in REFUSED_OPTIONS.items():
        # a property's own sub-properties too (-Djboss.bind.address.private)
        if name == refused or (refused.startswith("-D") and name.startswith(refused + ".")):
            return f"is refused: {why}"
    return None


def for_eval(options: str) -> str:
    """JAVA_OPTS for a start script that ``eval``s it: every token single-quoted where it
    needs it, so the shell hands it to the JVM as it is (the JVM sees the same arguments)."""
    return " ".join(shlex.quote(token) for token in shlex.split(options))
