"""Drive load from the load-generator container with the app's driver (drivers/: k6 runs the
app's workload script: one in the load generator's image for the lab's own app, an app
folder's otherwise), and turn the driver's summary into a trial's load metrics.

A trial is two driver runs back to back: a settling run whose numbers are discarded, then the
measured run (a k6 run costs about 0.13 s to start here, so the gap is negligible). Telemetry
is sampled right before and right after the measured run, so CPU and GC figures cover exactly
the measured window.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from . import apps
from .drivers import driver_for
from .recipe import Workload

WARMUP_USERS = 8  # closed-model users of an open-model recipe's warm-up (the stack's default)
OPEN_MAX_USERS = 200  # an open model's pool of virtual users where the recipe sets none


@dataclass(frozen=True)
class LoadSpec:
    mix: dict[str, int]
    model: str = "closed"
    users: int = 1
    think_time_ms: int = 0
    rate: float | None = None
    max_users: int | None = None
    # the app's workload parameters (apps.App.parameters: the recipe's values or the app's
    # defaults); the driver hands them to the script
    parameters: dict = field(default_factory=dict)
    scale: int = 1
    requests_per_connection: int = 0  # 0: each virtual user keeps its connection
    # a client JVM's options (change kind client-jvm-options); "" for the driver's default
    client_jvm_options: str = ""
    target: str = "app"  # the node's name on the stack's network
    stream: int = 0  # this run's index among k6 runs side by side (they touch different rows)
    streams: int = 1
    # what the load is sent to, and the script that sends it
    app: apps.App = field(default_factory=apps.default_app)
    deployment: str = ""  # which of the app's deployments: "" for its own (apps.Deployment)

    def with_load(self, overrides: dict) -> "LoadSpec":
        """This load with some keys replaced (an arm's load level: users, rate, or one of the
        app's workload parameters)."""
        fields = {k: v for k, v in overrides.items() if k not in self.app.parameters}
        parameters = {**self.parameters,
                      **{k: v for k, v in overrides.items() if k in self.app.parameters}}
        return replace(self, **fields, parameters=parameters)

    @property
    def concurrency(self) -> int:
        """The most requests this load can have in flight: a closed model's users, an open
        model's pool of virtual users."""
        return self.users if self.model != "open" else (self.max_users or OPEN_MAX_USERS)

    def for_warmup(self) -> "LoadSpec":
        """The load a node warms up with: this one, or for an open model its closed
        equivalent. Arrivals at a fixed rate pile up in a cold server faster than it compiles
        (a quarter-core node served 16 of 75 arrivals a second in its first window, and the
        backlog outlived the warm-up); users who wait for their answers load the server as
        fast as it can go and no faster."""
        if self.model != "open":
            return self
        return replace(self, model="closed", users=WARMUP_USERS, rate=None)

    def at(self, node: str, stream: int = 0, streams: int = 1) -> "LoadSpec":
        """This load, sent to another node (as stream ``stream`` of ``streams`` side by side)."""
        return replace(self, target=node, stream=stream, streams=streams)

    @classmethod
    def from_workload(cls, workload: Workload, root=None) -> "LoadSpec":
        """The load a recipe's [workload] describes; ``root``: the recipe's workspace, where
        its app lives (Recipe.repo_root)."""
        app = apps.load(workload.app, root)
        return cls(app=app, mix=app.mixes[workload.mix], model=workload.model,
                   users=workload.users or 1,
                   think_time_ms=workload.think_time_ms or 0, rate=workload.rate,
                   max_users=workload.max_users,
                   parameters=dict(workload.parameters),  # the app's defaults filled in
                   requests_per_connection=workload.requests_per_connection,
                   deployment=workload.deployment)

    @property
    def base_url(self) -> str:
        """Where the load goes: the target's HTTP port and the deployment's context root."""
        root = self.app.deployment(self.deployment).context_root
        return f"http://{self.target}:8080{root}"


def install(client, app: apps.App, specs=()) -> None:
    """Give the load generator what the app's driver needs (its script, unless the image
    has it) for the loads ``specs`` the run will send (a client JVM for each set of client
    options among them)."""
    driver_for(app).install(client, app, tuple(specs))


def run(client, spec: LoadSpec, seconds: int, tag: str = "") -> dict:
    """One window of `seconds` measured seconds (no warm-up phase inside) by the app's driver;
    ``tag`` names it in errors."""
    try:
        return driver_for(spec.app).run(client, spec, seconds)
    except RuntimeError as exc:
        raise RuntimeError(f"{tag or 'load'} against {spec.target}: {exc}") from exc


def load_metrics(summary: dict) -> dict:
    """Per-trial numbers from a k6 summary: errors first, then throughput and latency."""
    transactions = summary["transactions"]
    ok = sum(t["count"] for t in transactions.values())
    failed = sum(t["failed"] for t in transactions.values())
    total = ok + failed
    latency = summary.get("all") or {}
    return {
        "requests": total,
        "failed": failed,
        "error_rate": failed / total if total else 1.0,
        "dropped_iterations": summary.get("dropped_iterations", 0),
        # HTTP connections the load generator opened in the window (a request whose timings
        # include a TCP connect): the client's side of connection reuse, read back.
        "connections": summary.get("connections"),
        "connections_expected": summary.get("connections_expected"),
        # HTTP sessions the shoppers opened, and those whose id named a node to go back to
        # (apps/sessioncart): the servers' session affinity, read back from what they answered.
        "sessions": summary.get("sessions"),
        "sessions_routed": summary.get("sessions_routed"),
        "fail_reasons": summary.get("fail_reasons", {}),
        # The messages the window's requests sent, as the app's ledger counted them once the
        # consumer caught up (apps/messages): sent, consumed, missing, duplicated, latency.
        "messages": summary.get("messages"),
        # What an app's own script read from it after the window (its summary hook,
        # k6_contract.js): its figures, and what it found wrong, which fails the window as a
        # failed request does (apps/notify: a failed back-end call).
        "app": summary.get("app"),
        # A client JVM's own figures (drivers/java_client.py): its threads, CPU, collector,
        # packets per operation and the server's invocations per call.
        "client": summary.get("client"),
        "problems": list(summary.get("problems") or []),
        "throughput": ok / summary["trial_s"],
        "latency_p50": latency.get("p(50)"),
        "latency_p90": latency.get("p(90)"),
        "latency_p99": latency.get("p(99)"),
        "transactions": {
            name: {"count": t["count"], "failed": t["failed"],
                   "p50_ms": (t["latency_ms"] or {}).get("p(50)"),
                   "p90_ms": (t["latency_ms"] or {}).get("p(90)"),
                   "p99_ms": (t["latency_ms"] or {}).get("p(99)")}
            for name, t in transactions.items()},
    }


def message_problems(messages: dict | None) -> list[str]:
    """A window's messages that make it fail: any sent and never consumed (lost, or still
    unconsumed when the driver stopped waiting), any consumed twice. No tolerance: a broker
    that loses one message in a window has lost messages."""
    if not messages:
        return []
    problems = []
    if messages.get("missing"):
        problems.append(f"{messages['missing']:,} of {messages['sent']:,} messages sent were "
                        f"never consumed (lost, or not consumed {messages.get('drain_s')} s "
                        f"after the window)")
    if messages.get("duplicated"):
        problems.append(f"{messages['duplicated']:,} message(s) consumed more than once (of "
                        f"{messages['sent']:,} sent)")
    if messages.get("unconfirmed"):  # a send the app never saw commit, delivered all the same
        problems.append(f"{messages['unconfirmed']:,} message(s) consumed that no request "
                        f"recorded as sent")
    return problems


class SmokeTestFailed(RuntimeError):
    """The application does not answer every transaction type correctly: nothing can be measured."""


# Rounds of a smoke test (each runs every transaction type once): two show that a WAR answers
# correctly; a cluster's verification starts with these too (cluster.verify).
SMOKE_ROUNDS = 2


def smoke_test(client, rounds: int = SMOKE_ROUNDS, target: str = "app",
               app: apps.App | None = None,
               deployments: Iterable[str] | None = None) -> dict:
    """Every transaction type of the app (the lab's own by default; each of its deployments, or
    those named in ``deployments``: the ones a run drives) runs `rounds` times in turn and
    checks out (the NewOrder just created is found again by OrderStatus): the stack answers
    correctly before anything is measured. A fixed sequence, not a timed load, so a slow
    machine cannot make it flaky."""
    app = app or apps.default_app()
    mix = dict.fromkeys(app.transactions, 1)
    # A WAR no arm drives has a recipe of its own that tests it (the paging app has five). A
    # cluster's verification still tests them all (cluster.verify says why).
    chosen = [app.deployment(name) for name in deployments] if deployments is not None \
        else app.deployments
    for deployment in chosen:  # each WAR answers for itself
        spec = LoadSpec(app=app, mix=mix, model="smoke", parameters=app.smoke_parameters(),
                        target=target, deployment=deployment.name)
        driver = driver_for(app)
        try:
            metrics = load_metrics(driver.smoke(client, spec, rounds))
        except (RuntimeError, ValueError, KeyError, TypeError) as error:
            # a script that fails, or prints no summary in the contract (k6_contract.js): the
            # app's input, named before anything is measured, not a defect of the lab
            helps = getattr(driver, "contract_help", "docs/reference/own-application.md")
            raise SmokeTestFailed(
                f"{app.name}'s load script ({app.script}) did not give the {app.driver} "
                f"driver a summary in the lab's contract ({helps}): {type(error).__name__}: "
                f"{str(error)[-1500:]}") from None
        missing = [name for name in mix
                   if metrics["transactions"].get(name, {}).get("count", 0) == 0]
        lost = message_problems(metrics.get("messages")) + metrics["problems"]
        if lost:
            raise SmokeTestFailed(f"{app.name} ({deployment.war_name}) on {target}: "
                                  + "; ".join(lost))
        if metrics["failed"] or missing:
            raise SmokeTestFailed(
                f"{app.name} ({deployment.war_name}) on {target} does not answer correctly: "
                f"{metrics['failed']} failed request(s) ({metrics['fail_reasons']}), transaction "
                f"types that never succeeded: {', '.join(missing) or 'none'}")
    return metrics
