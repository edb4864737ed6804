"""A notebook's prose, written from its recipe when the notebook runs, so it cannot drift from
what the recipe applies (a retyped introduction once said 32 connections where the recipe
applied 16)."""
from __future__ import annotations

from . import apps
from .cluster_quotas import cpus_text
from .plan import compile_plan
from .recipe import Recipe

__all__ = ["DOCUMENT_NAMES", "recipe_markdown", "introduction"]

DOCUMENT_NAMES = {"guide": "JBoss EAP 5 Performance Tuning Guide", "thesis": "the thesis",
                  "blog": "the blog post", "ecperf-slides": "the ECperf slides",
                  "client-threads": "the client-threads note", "none": "no source"}


# How a plan's layout and switch read in a notebook's introduction (plan.py).
LAYOUT_WORDS = {
    "crossover": {
        "runtime": "two warm application-server nodes side by side; the arms swap nodes every "
                   "block, the setting written to the running servers",
        "reload": "two warm application-server nodes side by side; the arms swap nodes between "
                  "periods, each swap a reload and a warm-up",
        "restart": "two application-server nodes side by side; each period starts fresh JVMs "
                   "with the arms swapped, and warms them",
    },
    "shared": {
        "runtime": "one warm application-server node; the setting is switched on the running "
                   "server before every trial",
        "database": "one warm application-server node; the database setting is switched in "
                    "place before every trial",
        "reload": "one warm cluster; the arms take turns on its nodes, each turn a reload of "
                  "every node and a warm-up", "restart": "one warm application-server node",
    },
    "per-level": {switch: "each value on its own warm application-server node, measured one "
                          "at a time" for switch in ("runtime", "reload", "restart", "database")},
    "per-level side by side": {
        switch: "each value on its own warm application-server node, every node measured in "
                "the same window with its share of the quota"
        for switch in ("runtime", "reload", "restart", "database")},
}


def _layout_words(plan) -> str:
    side_by_side = plan.layout == "per-level" and plan.concurrency > 1
    return LAYOUT_WORDS[plan.layout + (" side by side" if side_by_side else "")][plan.switch]


def introduction(recipe: Recipe, profile: str) -> str:
    """Markdown: title, summary, the source's claim, the arms and how they are measured."""
    from .changes import kind_for  # the kind describes its own setting

    kind = kind_for(recipe)
    prof = recipe.profile(profile)
    plan = compile_plan(recipe, switch=kind.switch, points=prof.points)
    kind.bind(plan.arms)
    src = recipe.source
    where = ", ".join(x for x in (src.section and f"section {src.section}", src.table) if x)
    lines = [f"# {recipe.title}", "", recipe.summary, "",
             f"**Source** ({DOCUMENT_NAMES[src.document]}{', ' + where if where else ''}): "
             f"{src.claim}", "", f"**Arms** ({_layout_words(plan)})", ""]
    for arm in plan.arms:
        load = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in arm.load.items())
        lines.append(f"- `{arm.id}`: {kind.describe(arm)}" + (f" ({load})" if load else ""))
    w = recipe.workload
    who = f"{w.users} users" if w.model == "closed" else f"{w.rate:g} arrivals/s"
    app = "" if w.app == apps.default_app_name() else \
        f" of the `{w.app}` app (apps/{w.app})"
    lines += ["", f"**Load**: the `{w.mix}` mix{app}, {who}"
              + (f", {w.think_time_ms} ms think time" if w.think_time_ms else ", no think time")
              + ".", "",
              f"**Profile `{profile}`**: {prof.blocks} block(s), each running every arm once "
              f"({prof.settle_s} s settling, then {prof.window_s} s measured"
              + (f", longer, up to {prof.window_max_s} s, while an arm completes fewer than "
                 f"{prof.min_transactions} transactions" if prof.min_transactions else "")
              + f"); the primary metric is `{recipe.metrics.primary}`."]
    if prof.points == "ends" and (recipe.sweep or recipe.load_levels):
        lines += ["", "*This profile measures only the ends of the curve (and its reference).*"]
    if recipe.cluster and prof.cluster_nodes:
        lines += ["", f"*This profile runs the cluster on {prof.cluster_nodes} of its "
                      f"{recipe.cluster.nodes} nodes (`cluster_nodes`).*"]
    if recipe.cluster and prof.cluster_cpus:
        lines += ["", f"*This profile gives each node {prof.cluster_cpus:g} CPU "
                      f"(`cluster_cpus`), not the {cpus_text(recipe.cluster.cpus)} CPU the recipe "
                      f"measures with.*"]
    if profile == "quick":
        lines += ["", "*The quick profile proves the recipe runs end to end (the change applied "
                      "and read back, every arm measured, every trial valid); its numbers support "
                      "no claim. The site shows the full profile.*"]
    return "\n".join(lines)


def recipe_markdown(recipe_id: str, profile: str = "full"):
    """The introduction as a displayable Markdown object (for a notebook's first cell)."""
    from IPython.display import Markdown

    from .api import get_recipe
    return Markdown(introduction(get_recipe(recipe_id), profile))
