"""Integration tests run against the real stack: a Docker engine and the project's images
(`bash scripts/setup.sh` provides both). Without them these tests fail, they never skip."""
import docker
import pytest

from tuninglab.stack import NodeConfig, Stack, StackConfig

pytestmark = pytest.mark.docker


@pytest.fixture(scope="session")
def client():
    return docker.from_env()


@pytest.fixture(scope="module")
def stack():
    """One stack per test module: one app-server node "app" (half a core on core 1), the
    database and k6 on core 0."""
    with Stack(StackConfig(db_cpuset="0", loadgen_cpuset="0"), nodes={"app": NodeConfig()},
               progress=lambda line: print(line, flush=True)) as s:
        s.restore("app")  # a node boots wide; the measurement limits apply from here
        yield s


def run_labels(client, run_id):
    selector = {"label": f"tuninglab.run={run_id}"}
    return ([c.name for c in client.containers.list(all=True, filters=selector)]
            + [n.name for n in client.networks.list(filters=selector)])
