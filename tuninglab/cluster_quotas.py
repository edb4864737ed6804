"""A cluster's CPU quotas, as text and against the cpuset its nodes share: one home for both,
used by a [cluster] table's check (cluster.ClusterSpec.of), a profile's own quota
(recipe.py, ``cluster_cpus``) and a notebook's words about it (narrative.py)."""
from __future__ import annotations

from .interference import cpuset_cpus

__all__ = ["cpus_text", "overflow"]


def cpus_text(quotas) -> str:
    """"0.33" for nodes alike, "0.5/0.25/0.25" node by node; one number for one quota."""
    quotas = list(quotas) if isinstance(quotas, (list, tuple)) else [quotas]
    values = sorted(set(quotas))
    return f"{values[0]:g}" if len(values) == 1 else "/".join(f"{q:g}" for q in quotas)


def overflow(quotas: list[float], cpuset: str) -> str | None:
    """Why these nodes' quotas do not fit on their shared cpuset (None: they fit)."""
    capacity = len(cpuset_cpus(cpuset))
    total = sum(quotas)
    if total <= capacity + 1e-9:
        return None
    return (f"{len(quotas)} node(s) with {cpus_text(quotas)} CPU need {total:g} CPUs, more than "
            f"the nodes' cpuset {cpuset} holds ({capacity}); allowed: quotas that add up to at "
            f"most {capacity} (fewer nodes or smaller quotas)")
