"""Integration tests run against the real stack: a Docker engine and the project's images
(`bash scripts/setup.sh` provides both). Without them these tests fail, they never skip."""
import docker
import pytest

from tuninglab.stack import Stack, StackConfig

pytestmark = pytest.mark.docker


@pytest.fixture(scope="session")
def client():
    return docker.from_env()


@pytest.fixture(scope="module")
def stack():
    """One stack per test module: app server on core 1, database and k6 on core 0."""
    with Stack(StackConfig(app_cpuset="1", db_cpuset="0", loadgen_cpuset="0"),
               progress=lambda line: print(line, flush=True)) as s:
        yield s


def run_labels(client, run_id):
    selector = {"label": f"tuninglab.run={run_id}"}
    return ([c.name for c in client.containers.list(all=True, filters=selector)]
            + [n.name for n in client.networks.list(filters=selector)])
