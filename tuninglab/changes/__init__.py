"""Change kinds: how each kind of change is applied to an arm and read back.

A new kind is a small class in this package (see base.py) and a line in ``KINDS``; the engine
does not branch on kinds.
"""
from __future__ import annotations

from ..recipe import Recipe
from .app_properties import AppPropertiesChange
from .active_nodes import ActiveNodesChange
from .balancer_policy import BalancerPolicyChange
from .base import ChangeKind
from .client_jvm_options import ClientJvmOptionsChange
from .checks import ChangeNotEffective, Check, require, same
from .container_limits import ContainerLimitsChange
from .database_split import DatabaseSplitChange
from .deployment import DeploymentChange
from .front_protocol import FrontProtocolChange
from .jboss_cli import JbossCliChange
from .jdk import JdkChange
from .jvm_agent import JvmAgentChange
from .jvm_options import JvmOptionsChange
from .network_delay import NetworkDelayChange
from .network_rate import NetworkRateChange
from .node_image import NodeImageChange
from .ladder import LadderChange
from .none import NoChange
from .postgresql_conf import PostgresConfChange, parse_pg_fragment
from .workload import WorkloadChange

__all__ = ["KINDS", "ChangeKind", "ChangeNotEffective", "Check", "kind_for", "parse_pg_fragment",
           "require", "same"]

KINDS: dict[str, type[ChangeKind]] = {kind.name: kind for kind in (
    NoChange, JbossCliChange, AppPropertiesChange, JvmOptionsChange, ContainerLimitsChange,
    PostgresConfChange, WorkloadChange, ClientJvmOptionsChange, LadderChange, BalancerPolicyChange,
    ActiveNodesChange, DeploymentChange, DatabaseSplitChange, JdkChange, NodeImageChange,
    JvmAgentChange, NetworkDelayChange, NetworkRateChange, FrontProtocolChange)}


def kind_for(recipe: Recipe) -> ChangeKind:
    return KINDS[recipe.change.kind](recipe)
