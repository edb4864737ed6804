"""A jboss-cli script applied to the application server's configuration.

Whether the script's attributes take effect without a reload is WildFly's to say (each
attribute's ``restart-required`` in the management model; in WildFly 39 the data source's
``max-pool-size`` needs a reload, the io worker's ``task-max-threads`` does not). The model is
not the whole story: the ejb3 subsystem's pass-by-value switch is ``no-services``, yet writing
it redeploys the application. The recipe states the switch as ``change.switch`` (default
``reload``, which is always safe); a ``runtime`` switch is checked on every write (a write that
leaves the server waiting for a reload fails the run), and the read-back through the
application before every trial fails a run whose write restarted the application.
"""
from __future__ import annotations

from ..jboss_cli import Operation, parse_text
from ..plan import RELOAD, Arm
from .base import ChangeKind


class JbossCliChange(ChangeKind):
    name = "jboss-cli"

    def __init__(self, recipe):
        super().__init__(recipe)
        self.template = self.change.file.read_text(encoding="utf-8")
        self.switch = self.change.switch or RELOAD

    def operations(self, arm: Arm) -> tuple[list[Operation], bool]:
        """Every arm reads back the same operations (a sweep's arms with their own value);
        only the arms that get the change apply them."""
        return parse_text(self.substitute(self.template, arm), str(self.change.file)), \
            self.applies(arm)

    def describe(self, arm: Arm | None = None) -> str:
        if arm is not None and not self.applies(arm):
            return "the baseline"
        text = self.template if arm is None else self.substitute(self.template, arm)
        return "jboss-cli: " + "; ".join(str(op) for op in parse_text(text, str(self.change.file)))
