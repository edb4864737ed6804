"""The Swarm placement's reading of its file and of the swarm, against a fake manager: which
host each role goes to, and a clear error for every input it cannot use."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from tuninglab.placement import PlacementError
from tuninglab.placement.constraints import parse
from tuninglab.placement.swarm import ENGINE_LABEL, SwarmPlacement

GOOD = """
manager = "unix:///run/tl-h1/docker.sock"
[roles]
database = "node.hostname==tl-h1"
loadgen = "node.hostname==tl-h1"
balancer = ["node.role==manager"]
node = "node.role==worker"
"""


def _node(name, role="worker", ready=True, labels=None, engine=True):
    labels = dict(labels or {})
    if engine:
        labels[ENGINE_LABEL] = f"unix:///run/{name}/docker.sock"
    return SimpleNamespace(attrs={
        "ID": f"id-{name}", "Description": {"Hostname": name,
                                            "Resources": {"NanoCPUs": 2_000_000_000}},
        "Spec": {"Role": role, "Labels": labels, "Availability": "active"},
        "Status": {"State": "ready" if ready else "down", "Addr": f"10.0.0.{name[-1]}"}})


def _swarm(*nodes):
    return SimpleNamespace(nodes=SimpleNamespace(list=lambda: list(nodes)))


def _info(url):  # each engine is the swarm node its socket path names
    name = url.split("/")[-2]
    return {"Swarm": {"NodeID": f"id-{name}"}, "NCPU": 2, "Name": name}


THREE = (_node("tl-h1", "manager"), _node("tl-h2"), _node("tl-h3"))


def _placement(tmp_path, text=GOOD, nodes=THREE, info=_info):
    path = tmp_path / "p.toml"
    path.write_text(text)
    return SwarmPlacement.from_file(path, client=_swarm(*nodes), engine_info=info)


def test_roles_go_where_their_constraints_say_and_nodes_spread(tmp_path):
    placement = _placement(tmp_path)
    assert placement.engine_for("db", "database").host == "tl-h1"
    assert placement.engine_for("balancer", "balancer").host == "tl-h1"
    nodes = [placement.engine_for(f"app-{i}", "node").host for i in (1, 2, 3)]
    assert nodes == ["tl-h2", "tl-h3", "tl-h2"]
    # a role asked again (a node replaced by a fresh JVM) stays on its host
    assert placement.engine_for("app-2", "node").host == "tl-h3"
    engine = placement.engine_for("app-1", "node")
    assert (engine.url, engine.address, engine.cpus) == ("unix:///run/tl-h2/docker.sock",
                                                         "10.0.0.2", 2)
    assert placement.describe()["roles"] == {"db": "tl-h1", "balancer": "tl-h1",
                                             "app-1": "tl-h2", "app-2": "tl-h3",
                                             "app-3": "tl-h2"}
    assert placement.describe()["file"] == "p.toml"  # no folder of this machine in a result


def test_a_role_named_in_the_file_goes_before_its_kind(tmp_path):
    placement = _placement(tmp_path, GOOD + 'app-1 = "node.hostname==tl-h3"\n')
    assert placement.engine_for("app-1", "node").host == "tl-h3"
    assert placement.engine_for("app-2", "node").host == "tl-h2"


def test_a_label_constraint_and_a_host_that_is_not_ready(tmp_path):
    nodes = (_node("tl-h1", "manager"), _node("tl-h2", labels={"tier": "app"}, ready=False),
             _node("tl-h3", labels={"tier": "app"}))
    placement = _placement(tmp_path, GOOD.replace('"node.role==worker"', '"node.labels.tier==app"'),
                           nodes)
    assert {placement.engine_for(f"app-{i}", "node").host for i in (1, 2)} == {"tl-h3"}


@pytest.mark.parametrize("text, words", [
    ('manager = "unix:///m"\nroles = 3', ["a table [roles] must place"]),
    ('hosts = 1\n' + GOOD, ["unknown key(s) hosts", "allowed: manager, roles"]),
    (GOOD.replace('node = "node.role==worker"\n', ""), ["does not place node"]),
    (GOOD.replace('"node.hostname==tl-h1"\nloadgen', '"node.name=tl-h1"\nloadgen'),
     ["roles.database", "is not a Swarm constraint", "node.hostname"]),
    (GOOD.replace('["node.role==manager"]', "[]"), ["roles.balancer must be a constraint"]),
    (GOOD.replace('manager = "unix:///run/tl-h1/docker.sock"', ""), ["key 'manager'"]),
    ("[roles\n", ["not valid TOML"]),
])
def test_bad_files_are_named_with_the_key_and_what_is_allowed(tmp_path, text, words):
    with pytest.raises(PlacementError) as error:
        _placement(tmp_path, text)
    assert "p.toml" in str(error.value)
    for word in words:
        assert word in str(error.value)


def test_a_constraint_no_host_satisfies(tmp_path):
    with pytest.raises(PlacementError, match=r"roles.database = node.hostname==tl-h9: no ready "
                                             r"host .* hosts: tl-h1 \(ready\), tl-h2"):
        _placement(tmp_path, GOOD.replace('database = "node.hostname==tl-h1"',
                                          'database = "node.hostname==tl-h9"'))


def test_a_host_without_its_engine_label(tmp_path):
    nodes = (_node("tl-h1", "manager"), _node("tl-h2", engine=False), _node("tl-h3"))
    with pytest.raises(PlacementError, match=f"host tl-h2 has no label {ENGINE_LABEL}"):
        _placement(tmp_path, nodes=nodes)


def test_an_engine_label_that_points_at_another_host(tmp_path):
    def wrong(url):
        return {**_info(url), "Swarm": {"NodeID": "id-tl-h1"}} if "tl-h3" in url else _info(url)
    with pytest.raises(PlacementError, match="points at unix:///run/tl-h3/docker.sock, the "
                                             "engine of another swarm node"):
        _placement(tmp_path, info=wrong)


def test_an_engine_that_does_not_answer(tmp_path):
    def down(url):
        if "tl-h2" in url:
            raise ConnectionError("connection refused")
        return _info(url)
    with pytest.raises(PlacementError, match="host tl-h2's engine .* does not answer"):
        _placement(tmp_path, info=down)


def test_a_missing_file(tmp_path):
    with pytest.raises(PlacementError, match="no such placement file"):
        SwarmPlacement.from_file(tmp_path / "none.toml", client=_swarm(*THREE))


@pytest.mark.parametrize("text, holds", [("node.hostname==tl-h2", True),
                                         ("node.hostname!=tl-h2", False),
                                         ("node.labels.tier==app", True),
                                         ("node.labels.zone==a", False),
                                         ("node.role == worker", True)])
def test_constraints_match_as_swarm_matches_them(text, holds):
    from tuninglab.placement.constraints import SwarmHost
    host = SwarmHost("tl-h2", "x", "worker", {"tier": "app"}, True, "10.0.0.2", 2)
    assert parse(text).holds(host) is holds


def test_a_lost_engine_is_named_and_the_others_are_still_cleaned():
    from tuninglab.cleanup import EnginesLost, RunScope

    class Container:
        def __init__(self, bag):
            self.bag = bag

        def remove(self, **_):
            self.bag.append("removed")

    def engine(bag, lost=False):
        def listing(**_):
            if lost:
                raise ConnectionError("engine gone")
            return [Container(bag)]
        return SimpleNamespace(containers=SimpleNamespace(list=listing, get=None),
                               networks=SimpleNamespace(list=lambda **_: [], get=None),
                               api=SimpleNamespace(base_url="http+docker://tl-h2"))

    own, other = [], []
    scope = RunScope(engine(own), {"tl-h2": engine([], lost=True), "tl-h3": engine(other)})
    with pytest.raises(EnginesLost, match=r"the engine of host tl-h2 \(ConnectionError\) did not answer"):
        scope.remove_all()
    assert own == ["removed"] and other == ["removed"]


def test_every_docker_client_of_a_stack_waits_the_labs_api_timeout_not_docker_pys_60_s():
    """A busy engine beside parked stacks answered a container start after more than 60 s (CI,
    29 November 2026): the stack's container, network and engine clients all wait
    API_TIMEOUT_S."""
    from tuninglab.containers import LabContainer
    from tuninglab.placement import API_TIMEOUT_S, Engine, LocalPlacement, local_client
    assert API_TIMEOUT_S > 60
    assert local_client().api.timeout == API_TIMEOUT_S
    assert LabContainer("tuninglab/db:17", "db")._docker.client.api.timeout == API_TIMEOUT_S
    assert LocalPlacement().network({})._docker.client.api.timeout == API_TIMEOUT_S
    assert Engine("h1", url="tcp://10.0.0.2:2375").client_kw()["timeout"] == API_TIMEOUT_S
