"""A cluster asked for in a way that cannot work is refused with the key and what is allowed."""
import pytest

from tuninglab import cluster
from tuninglab.cluster import ClusterInputError, ClusterSpec


def test_quotas_that_fit_make_one_node_config_each():
    spec = ClusterSpec.of(3, 0.3)
    configs = spec.node_configs()
    assert list(configs) == ["app-1", "app-2", "app-3"]
    for name, config in configs.items():
        assert config.cpus == 0.3 and config.cpuset == "1"
        assert config.server_config == cluster.SERVER_CONFIG == "standalone-ha-dns.xml"
        assert config.network_aliases == (cluster.CLUSTER_ALIAS,)
        assert f"-Djboss.node.name={name}" in config.jvm_command_line()
    assert ClusterSpec.of(2, [0.6, 0.4]).cpus == (0.6, 0.4)  # heterogeneous, adds up to 1


@pytest.mark.parametrize("args, message", [
    ((0, 0.5), r"cluster.nodes is 0: a balancer needs at least one node"),
    ((9, 0.1), r"cluster.nodes is 9; allowed: 1 to 8"),
    ((3, 0.5), r"3 node\(s\) with 0.5 CPU need 1.5 CPUs, more than the nodes' cpuset 1 holds"),
    ((2, [0.5, 0.2, 0.1]), r"cluster.cpus lists 3 quota\(s\) for 2 node\(s\)"),
    ((2, 0.01), r"cluster.cpus has 0.01; allowed: numbers of CPUs of at least 0.05"),
    ((2, 0.5, "wrr"), r"cluster.policy 'wrr' is not a balancing policy; allowed: roundrobin, "
                      r"leastconn, random, first"),
    ((2, 0.5, "first"), r"cluster.policy first fills one node up to its cluster.server_maxconn"),
    ((2, 0.5, "roundrobin", -1), r"cluster.server_maxconn is -1"),
])
def test_bad_clusters_are_refused_with_the_key_and_what_is_allowed(args, message):
    with pytest.raises(ClusterInputError, match=message):
        ClusterSpec.of(*args)


def test_two_cores_hold_more():
    assert ClusterSpec.of(3, 0.6, cpuset="0-1").nodes == 3


def test_a_view_text_gives_its_members():
    assert cluster._members("[app-1|2] (3) [app-1, app-2, app-3]") == ["app-1", "app-2", "app-3"]
    # as WildFly 39 reports it (read 2026-11-25): each member with its Infinispan version
    assert cluster._members("[app-2(v=16.0.5)|2] (3) [app-2(v=16.0.5), app-3(v=16.0.5), "
                            "app-1(v=16.0.5)]") == ["app-2", "app-3", "app-1"]
    assert cluster._members("") == []
    merged = ("MergeView::[app-2(v=16.0.5)|1] (2) [app-2(v=16.0.5), app-1(v=16.0.5)], 2 "
              "subgroups: [app-1(v=16.0.5)|0] (1) [app-1(v=16.0.5)], [app-2(v=16.0.5)|0] (1) "
              "[app-2(v=16.0.5)]")  # read on a cluster whose two nodes reloaded at once
    assert cluster._members(merged) == ["app-2", "app-1"]


def test_the_probe_war_is_the_same_bytes_on_every_node():
    """Its content hash is in each node's model; two nodes deployed a second apart must not
    differ there (a cluster run failed its model comparison on it, 2026-11-26)."""
    import time
    first = cluster.probe_war()
    time.sleep(2.1)  # zip timestamps have a two-second resolution
    assert cluster.probe_war() == first


@pytest.mark.parametrize("algo, configured, expected", [
    ("leastconn", "leastconn", "leastconn"),
    ("unknown", "random", "random"),  # HAProxy 3.0 has no name for random in its statistics
    ("unknown", "leastconn", "unknown"),  # a worker that did not load what was asked
    ("roundrobin", "random", "roundrobin"),  # the reload did not happen: not random
])
def test_the_policy_in_force_is_what_haproxy_reports(monkeypatch, algo, configured, expected):
    from tuninglab.containers import Balancer
    balancer = Balancer.__new__(Balancer)
    monkeypatch.setattr(balancer, "stats", lambda: {"BACKEND": {"algo": algo}}, raising=False)
    monkeypatch.setattr(balancer, "run", lambda command: f"backend nodes\n    balance {configured}\n",
                        raising=False)
    assert balancer.policy() == expected


STAT_CSV = ("# pxname,svname,status,algo,hrsp_2xx\n"
            "app,FRONTEND,OPEN,,10\n"
            "nodes,app-1,UP,,4\nnodes,app-2,UP,,6\nnodes,BACKEND,UP,leastconn,10\n")


def test_a_stats_read_cut_short_is_retried_until_haproxy_answers(monkeypatch):
    """A reload hands the stats socket to a new worker: a read in between comes back empty or
    with a broken pipe. The read is retried; the answer after it counts (a parked cluster's
    claimant failed verify on such a read, IndexError on the empty answer)."""
    from tuninglab import containers
    balancer = containers.Balancer.__new__(containers.Balancer)
    answers = iter([BrokenPipeError(32, "Broken pipe"), "",
                    RuntimeError("balancer: `tl-balancer stat` exited 1: socat E write: "
                                 "Broken pipe"),
                    STAT_CSV])

    def run(command):
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer
    monkeypatch.setattr(balancer, "run", run, raising=False)
    monkeypatch.setattr(containers.time, "sleep", lambda s: None)
    assert balancer.stats()["BACKEND"]["algo"] == "leastconn"
    assert next(answers, "none left") == "none left"  # every bad read was retried


def test_a_balancer_that_never_answers_is_an_error_that_says_so(monkeypatch):
    from tuninglab import containers
    balancer = containers.Balancer.__new__(containers.Balancer)
    monkeypatch.setattr(balancer, "run", lambda command: "", raising=False)
    monkeypatch.setattr(balancer, "STATS_PATIENCE_S", 0.0, raising=False)
    monkeypatch.setattr(containers.time, "sleep", lambda s: None)
    with pytest.raises(RuntimeError, match="could not be read for 0 s: .*no header"):
        balancer.stats()


@pytest.mark.parametrize("text, message", [
    ("", "no header"),
    ("2026/11/26 socat[12] E connect: Connection refused\n", "no header"),
    ("# pxname,svname,status\nnodes,app-1,UP\n", "no row for backend"),
])
def test_haproxy_stats_without_the_backend_row_are_refused(text, message):
    from tuninglab.containers import parse_haproxy_stats
    with pytest.raises(RuntimeError, match=message):
        parse_haproxy_stats(text)


def test_haproxy_stats_give_a_row_per_node_and_the_backend():
    from tuninglab.containers import parse_haproxy_stats
    rows = parse_haproxy_stats(STAT_CSV)
    assert set(rows) == {"app-1", "app-2", "BACKEND"}
    assert rows["app-2"]["hrsp_2xx"] == "6"


# The jgroups subsystem of WildFly 39's standalone-ha.xml, as the image holds it.
HA_JGROUPS = """<subsystem xmlns="urn:jboss:domain:jgroups:community:9.0">
    <channels default="ee">
        <channel name="ee" stack="udp" cluster="ejb"/>
    </channels>
    <stacks>
        <stack name="udp">
            <transport type="UDP" socket-binding="jgroups-udp"/>
            <protocol type="PING"/>
        </stack>
        <stack name="tcp">
            <transport type="TCP" socket-binding="jgroups-tcp"/>
            <protocol type="RED"/>
            <socket-protocol type="MPING" socket-binding="jgroups-mping"/>
            <protocol type="MERGE3"/>
        </stack>
    </stacks>
</subsystem>"""


def test_nodes_boot_with_dns_discovery_on_the_tcp_stack():
    derived = cluster.DERIVED_CONFIGS[cluster.SERVER_CONFIG]
    assert derived.base == "standalone-ha.xml"
    xml = derived.derive(HA_JGROUPS)
    assert "MPING" not in xml and '<channel name="ee" stack="tcp" cluster="ejb"/>' in xml
    tcp = xml[xml.index('<stack name="tcp">'):]
    assert tcp.index("RED") < tcp.index("dns.DNS_PING") < tcp.index("MERGE3")  # MPING's place
    assert '<property name="dns_query">cluster</property>' in tcp
    assert '<protocol type="PING"/>' in xml  # the udp stack is left alone
    assert list(derived.files()) == ["/opt/wildfly/standalone/deployments/tl-cluster-probe.war"]


def test_a_standalone_ha_xml_of_another_shape_is_refused():
    with pytest.raises(cluster.ClusterError, match="does not hold <socket-protocol"):
        cluster.dns_discovery(HA_JGROUPS.replace("MPING", "PING"))


class _SplitNodes:
    """Two reloaded members of a parked cluster, each in a view of its own (stop 72's CI), as
    their management API reports them: a node reloaded again joins the other's view."""

    def __init__(self):
        self.views = {"app-1": "[app-1|8] (1) [app-1]", "app-2": "[app-2|0] (1) [app-2]"}
        self.reloaded, self.said = [], []

    def management_of(self, name):
        nodes = self

        class Management:
            def read_attribute(self, address, attribute):
                return nodes.views[name] if attribute == "view" else "OK"

            def reload(self):
                nodes.reloaded.append(name)
                members = "[app-1, app-2]"
                nodes.views = {n: f"[app-1|9] (2) {members}" for n in nodes.views}
        return Management()

    def progress(self, text):
        self.said.append(text)


def test_a_parked_cluster_split_after_its_reloads_is_joined_by_reloading_the_node_apart(
        monkeypatch):
    monkeypatch.setattr(cluster, "SPLIT_PATIENCE_S", 0.0)
    nodes = _SplitNodes()
    reloaded, views = cluster._reload_the_split_off(nodes, ["app-1", "app-2"], timeout_s=1.0)
    assert reloaded == nodes.reloaded == ["app-2"]  # the larger view stays: app-1 is first
    assert all(cluster._has_all(v, ["app-1", "app-2"]) for v in views.values())
    assert "app-1 sees app-1; app-2 sees app-2" in nodes.said[0]
