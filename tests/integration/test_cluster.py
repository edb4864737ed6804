"""A cluster of three standalone-ha nodes behind the balancer forms, serves, switches policy and
leaves nothing behind (cluster.py)."""
import pytest

from tuninglab import cluster
from tuninglab.cluster import BALANCER_NAME, ClusterSpec
from tuninglab.stack import Stack

from .conftest import run_labels


@pytest.fixture(scope="module")
def formed():
    spec = ClusterSpec.of(3, 0.3)
    with Stack(progress=lambda line: print(line, flush=True)) as stack:
        run_id = stack.scope.run_id
        report = cluster.form(stack, spec)
        for name in spec.names:
            stack.restore(name)  # nodes are formed wide; the measurement's quotas apply from here
        yield stack, spec, report
    # the with block has ended: nothing of the run is left (nodes, balancer, network)
    assert run_labels(stack.client, run_id) == []


def test_three_nodes_form_one_view_and_each_serves_through_the_balancer(formed):
    stack, spec, report = formed
    cluster.verify(stack, spec, report)
    print(f"cluster ready in {report.ready_s:.1f} s; views {report.views}; "
          f"requests by node {report.requests_by_node}")
    assert set(report.views) == {"app-1", "app-2", "app-3"}
    for view in report.views.values():
        assert sorted(cluster._members(view)) == ["app-1", "app-2", "app-3"], view
    assert all(count > 0 for count in report.requests_by_node.values()), report.requests_by_node
    for name, quota in zip(spec.names, spec.cpus):
        assert stack.limits_of(name)["cpus"] == pytest.approx(quota)


def test_the_balancer_switches_policy_and_reads_it_back(formed):
    stack, spec, report = formed
    balancer = stack.balancers[BALANCER_NAME]
    balancer.set_policy("leastconn")
    assert balancer.policy() == "leastconn"
    with pytest.raises(cluster.ClusterError, match="policy 'leastconn', not 'roundrobin'"):
        cluster.verify(stack, spec, report)
    balancer.set_policy("random")  # HAProxy 3.0's statistics call it "unknown"
    assert balancer.policy() == "random"
    balancer.set_policy("roundrobin")
    assert balancer.policy() == "roundrobin"
