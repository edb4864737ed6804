"""One database against two (thesis 6.6): the app's manufacturing transactions reach a
database of their own, the stack's second, instead of sharing the first with the orders.

The app (``apps/ordermfg``) is deployed twice on every node from boot, as the ``deployment``
kind's apps are: its own WAR sends both domains to ``db``, a further one (``change.deployment``)
sends manufacturing to ``db2``. So the arms alternate without a reload, and the load chooses.
What makes the comparison fair is the databases' CPU: the stack gives each database a quota
(``[stack] db_cpus``), and the variant may give each another (``change.db_cpus``): with half
the baseline's, two databases share what the one had. The quotas are put on the running
containers before every trial (``docker update``, as the container-limits kind does for a
node) and read back with the proof of where each domain's pool goes: the app answers, from the
running server, the address of the database each of its pools reaches (``/where``), which must
be the arm's.
"""
from __future__ import annotations

import json
import urllib.request

from ..plan import DATABASE, Arm
from .checks import Check
from .container_limits import quota_check
from .deployment import DeploymentChange


class DatabaseSplitChange(DeploymentChange):
    name = "database-split"
    # The arms share the databases they compare, so they run one at a time on one node, the
    # quotas switched before every trial (plan.py: the shared layout).
    switch = DATABASE

    def database_cpus(self, arm: Arm) -> float | None:
        """Each database's quota in the arm: the change's in the variant, else the stack's."""
        if self.applies(arm) and self.change.db_cpus is not None:
            return self.change.db_cpus
        return self.recipe.stack.db_cpus

    def databases_of(self, arm: Arm, stack) -> dict[str, str]:
        """Which database each domain reaches in the arm: both the first; in the variant,
        manufacturing the second."""
        first, second = list(stack.databases)[:2]
        return {"orders": first, "mfg": second if self.applies(arm) else first}

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        cpus = self.database_cpus(arm)
        for name in stack.databases:
            stack.set_database_cpus(name, cpus)
        return []

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        checks = super().read_back(stack, node, arm)
        cpus = self.database_cpus(arm)
        checks += [quota_check(name, cpus, stack.limits_of(name)["cpus"])
                   for name in stack.databases]
        deployment = self.deployment(arm)
        url = f"{stack.nodes[node].app_url()}{deployment.context_root}/where"
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                reached = json.load(answer)
        except (OSError, ValueError) as error:
            return checks + [Check(f"{deployment.war_name}'s pools on {node}",
                                   "an answer from /where", str(error), False)]
        reaches = self.databases_of(arm, stack)
        addresses = {database: stack.address_of(database) for database in set(reaches.values())}
        for domain, database in reaches.items():
            address = addresses[database]
            checks.append(Check(f"{deployment.war_name}: the {domain} pool's database on {node}",
                                f"{database} ({address})", str(reached.get(domain)),
                                reached.get(domain) == address))
        return checks

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            war = self.app.deployment(self.change.deployment).war_name
            cpus = self.change.db_cpus
            quota = "" if cpus is None else f", {cpus} CPUs per database"
            return f"database-split: manufacturing to the second database ({war}){quota}"
        return f"{super().describe(arm)}, {self.database_cpus(arm)} CPUs per database"
