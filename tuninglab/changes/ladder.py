"""A ladder: whole configurations measured against the first, each assembled from the changes
of other recipes on this site (the guide's chapter 11: out of the box, production-like, a
larger heap, fully tuned).

Each rung is a node of its own (its JVM options differ, so the switch is a fresh JVM) with
the jboss-cli operations of the recipes it adopts. The adopted recipes are groups of
operations (ChangeKind.operation_groups): a rung applies the groups it adopts and proves it
holds the baseline's values for the others, so a rung that should not be tuned is seen not to
be. JVM options are stated in full on each rung; a rung that adopts a jvm-options recipe must
carry every option that recipe adds (checked here, before anything starts).
"""
from __future__ import annotations

import shlex

from .. import jboss_cli
from ..jboss_cli import Operation
from ..plan import RESTART, Arm
from ..recipe import Recipe, RecipeError, Rung, find_recipe
from . import model
from .jvm_options import JvmOptionsChange

# What a rung can adopt: a change that is one configuration (no sweep) of these kinds.
ADOPTABLE = ("jboss-cli", "jvm-options")


class LadderChange(JvmOptionsChange):
    name = "ladder"
    switch = RESTART

    def __init__(self, recipe: Recipe):
        super().__init__(recipe)
        self.rungs = recipe.change.rungs
        where = f"{recipe.toml_path.relative_to(recipe.repo_root)}: change.rungs"
        self.adopted = {rid: _adoptable(recipe, rid, where)
                        for rung in self.rungs for rid in rung.adopts}
        # jboss-cli steps in the order the rungs first name them: the groups of every arm.
        self.steps = {rid: jboss_cli.parse_file(r.change.file) for rid, r in self.adopted.items()
                      if r.change.kind == "jboss-cli"}
        _check_targets(self.steps, where)
        for i, rung in enumerate(self.rungs):
            _check_jvm_options(rung, [self.adopted[rid] for rid in rung.adopts],
                               f"{where}[{i}].jvm_options")

    def rung(self, arm: Arm) -> Rung:
        return next(r for r in self.rungs if r.name == arm.level)

    def applies(self, arm: Arm) -> bool:
        return arm.level is not None and arm.level != self.rungs[0].name

    def options(self, arm: Arm) -> str:
        return self.rung(arm).jvm_options

    def operation_groups(self, arm: Arm) -> list[tuple[list[Operation], bool]]:
        adopts = self.rung(arm).adopts
        return [(ops, rid in adopts) for rid, ops in self.steps.items()]

    def operations(self, arm: Arm) -> tuple[list[Operation], bool]:
        """Every step's operations (what any rung may write), and whether this rung writes
        any of them."""
        groups = self.operation_groups(arm)
        return [op for ops, _ in groups for op in ops], any(applied for _, applied in groups)

    def describe(self, arm: Arm | None = None) -> str:
        rungs = self.rungs if arm is None else (self.rung(arm),)
        text = "; ".join(f"{r.name}: JVM '{r.jvm_options}'"
                         + (f", adopts {', '.join(r.adopts)}" if r.adopts else "")
                         for r in rungs)
        return f"ladder of {len(self.rungs)} rungs: {text}" if arm is None else text

    def files(self) -> dict[str, str]:
        return {f"{rid}/{r.change.file.name}": r.change.file.read_text()
                for rid, r in self.adopted.items() if r.change.file}


def _adoptable(recipe: Recipe, rid: str, where: str) -> Recipe:
    if rid == recipe.id:
        raise RecipeError(f"{where}: a ladder cannot adopt itself ({rid!r})")
    try:
        other = find_recipe(recipe.repo_root, rid)
    except RecipeError as error:
        raise RecipeError(f"{where}: adopts {rid!r}, which cannot be used: {error}") from None
    if other.change.kind not in ADOPTABLE or other.sweep is not None:
        what = "a sweep" if other.sweep is not None else f"of kind {other.change.kind}"
        raise RecipeError(f"{where}: adopts {rid!r}, which is {what}; allowed: a recipe of kind "
                          f"{' or '.join(ADOPTABLE)} without a sweep")
    if other.baseline.cli or other.baseline.properties or other.baseline.pg_conf:
        raise RecipeError(f"{where}: adopts {rid!r}, whose change is measured against a set-up "
                          f"of its own ([baseline]); allowed: recipes without [baseline]")
    return other


def _check_targets(steps: dict[str, list[Operation]], where: str) -> None:
    """Two adopted recipes that write the same attribute would make the ladder's result
    depend on their order."""
    seen: dict[tuple, str] = {}
    for rid, ops in steps.items():
        for op in ops:
            key = model.target(op)
            if key in seen and seen[key] != rid:
                raise RecipeError(f"{where}: {rid!r} and {seen[key]!r} both write "
                                  f"{op.address_text}; allowed: adopted recipes that change "
                                  f"different settings")
            seen.setdefault(key, rid)


def _check_jvm_options(rung: Rung, adopted: list[Recipe], where: str) -> None:
    tokens = set(shlex.split(rung.jvm_options))
    for other in adopted:
        if other.change.kind != "jvm-options":
            continue
        added = set(shlex.split(other.change.jvm_options)) - set(shlex.split(other.stack.jvm_options))
        missing = sorted(added - tokens)
        if missing:
            raise RecipeError(f"{where}: rung {rung.name!r} adopts {other.id!r} but lacks "
                              f"{' '.join(missing)}, which that recipe adds; allowed: JVM options "
                              f"that include every option an adopted recipe adds")
