"""What the nodes sent and received on their networks in a window (network_counters.py and
telemetry's window), and the read-back of what an arm did there ([change.network], read by
changes/database_read_back.py): known interface tables in, known figures out."""
from __future__ import annotations

import pytest

from tuninglab import network_counters, stats, telemetry
from tuninglab.analysis.trials import UNITS, trial_metrics
from tuninglab.changes.database_read_back import checks
from tuninglab.recipe import RecipeError, load_recipe

# /proc/<pid>/net/dev of a container: the loopback and one interface on the stack's network
NET_DEV = """Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:  123456     100    0    0    0     0          0         0   123456     100    0    0    0     0       0          0
  eth0: 5000000    4000    0    0    0     0          0         0  9000000    6000    0    0    0     0       0          0
"""


def test_the_loopback_is_left_out_and_every_other_interface_counts():
    two = NET_DEV + "  eth1:    1000      10    0    0    0     0          0         0      500       5    0    0    0     0       0          0\n"
    assert network_counters.parse_net_dev(NET_DEV) == {"received_bytes": 5_000_000,
                                                        "sent_bytes": 9_000_000}
    assert network_counters.parse_net_dev(two) == {"received_bytes": 5_001_000,
                                                    "sent_bytes": 9_000_500}


def test_the_counters_are_read_through_a_process_of_the_container(tmp_path):
    (tmp_path / "42" / "net").mkdir(parents=True)
    (tmp_path / "42" / "net" / "dev").write_text(NET_DEV)
    # the first process ended between the listing and the read: the next one answers
    assert network_counters.read([41, 42], proc=tmp_path)["sent_bytes"] == 9_000_000
    assert "error" in network_counters.read([41], proc=tmp_path)
    assert "remote engine" in network_counters.read(None)["error"]


def test_a_cluster_s_window_is_its_nodes_bytes_together_per_completed_transaction():
    pairs = [({"sent_bytes": 1_000, "received_bytes": 500},
              {"sent_bytes": 2_001_000, "received_bytes": 100_500}),
             ({"sent_bytes": 0, "received_bytes": 0},
              {"sent_bytes": 1_000_000, "received_bytes": 2_000_000})]
    figures = telemetry._network_window(pairs, transactions=100, cut_off=8)
    assert figures["sent_bytes"] == 3_000_000 and figures["received_bytes"] == 2_100_000
    assert figures["per_tx"] == {"sent_bytes": 30_000.0, "received_bytes": 21_000.0}
    assert (figures["transactions"], figures["cut_off"]) == (100, 8)
    assert telemetry._network_window(pairs, transactions=0, cut_off=0)["per_tx"] == {}
    unread = [({"error": "the container's processes are not ours to read"}, {})]
    assert "not ours" in telemetry._network_window(unread, 100, 0)["error"]


def test_the_bytes_a_transaction_sent_are_a_metric_compared_like_the_others():
    load = {"throughput": 100.0, "latency_p50": 1.0, "latency_p90": 2.0, "latency_p99": 3.0,
            "error_rate": 0.0}
    metrics = trial_metrics(load, {"network": {"per_tx": {"sent_bytes": 25_000.0}}})
    assert metrics["sent_bytes_per_tx"] == 25_000.0
    assert "sent_bytes_per_tx" not in trial_metrics(load, {})
    rule = stats.METRIC_RULES["sent_bytes_per_tx"]
    assert rule.scale == stats.RATIO and not rule.higher_is_better
    assert "sent_bytes_per_tx" in UNITS


RANGES = {"baseline": {"sent_bytes": (20_000, 100_000)}, "variant": {"sent_bytes": (0, 8_000)}}
WHERE = "on the nodes' networks"


def window(sent_per_tx: float, cut_off: int = 0) -> dict:
    return {"per_tx": {"sent_bytes": sent_per_tx}, "transactions": 1_000, "cut_off": cut_off}


def test_a_session_written_whole_must_send_its_large_attribute_and_one_written_by_attribute_not():
    assert all(c.ok for c in checks(RANGES, False, window(23_500.0), where=WHERE))
    assert all(c.ok for c in checks(RANGES, True, window(900.0), where=WHERE))
    # a WAR whose descriptor did not take effect writes whole in both arms, or in neither
    [wrong] = checks(RANGES, True, window(23_500.0), where=WHERE)
    assert not wrong.ok and wrong.what == "sent_bytes per transaction, on the nodes' networks (variant)"
    assert not checks(RANGES, False, window(900.0), where=WHERE)[0].ok
    # a window whose edges cut requests in half may read a little high, never far
    assert checks(RANGES, True, window(8_400.0, cut_off=80), where=WHERE)[0].ok
    assert not checks(RANGES, True, window(8_400.0), where=WHERE)[0].ok


def test_a_window_without_its_network_figures_fails_its_read_back():
    [check] = checks(RANGES, False, {"error": "a remote engine"}, where=WHERE)
    assert not check.ok and check.what == "the window's figures on the nodes' networks (baseline)"


@pytest.mark.parametrize("runtime, needs", [('["datasource-pool"]', True),
                                            ('["datasource-pool", "network"]', False)])
def test_network_ranges_need_the_network_figures_and_must_be_ranges(tree, runtime, needs):
    folder = tree.edit('runtime = ["datasource-pool"]', f"runtime = {runtime}")
    folder = tree.edit('[workload]', '[change.network.variant]\nsent_bytes = [9, 1]\n\n[workload]')
    with pytest.raises(RecipeError) as error:
        load_recipe(folder)
    text = str(error.value)
    assert ("change.network: needs the network's figures" in text) == needs
    assert "change.network.variant.sent_bytes: [9, 1]" in text


@pytest.mark.parametrize("table, runtime", [("network", "network"), ("database", "database")])
def test_ranges_of_a_figure_the_counters_do_not_have_are_refused(tree, table, runtime):
    """Until 5 December 2026 an unknown figure name in [change.database] ended in a traceback
    (the message assumed every listed name was a system property's)."""
    folder = tree.edit('runtime = ["datasource-pool"]', f'runtime = ["{runtime}"]')
    folder = tree.edit('[workload]', f'[change.{table}.variant]\npackets = [0, 1]\n\n[workload]')
    with pytest.raises(RecipeError) as error:
        load_recipe(folder)
    assert f"change.{table}.variant.packets: unknown name; allowed:" in str(error.value)
