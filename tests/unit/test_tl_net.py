"""tl-net, the lab's network tool, run on this machine's loopback: the proxy adds the delay it is
set to, caps the link at its rate in each direction for all its connections together (one wire,
not one per connection), and refuses a setting out of range. The binary is set-up's build
(scripts/setup.sh app); the proxy's control address is fixed (127.0.0.1:8475), so these tests
run one proxy at a time."""
from __future__ import annotations

import json
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tuninglab import layout

TOOL = layout.REPO_ROOT / "tools" / "tl-net" / "target" / "tl-net"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tl(*arguments: str) -> dict:
    out = subprocess.run([str(TOOL), *arguments], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def proxy():
    """An echo server and a sink, and a proxy with a route to each: {"echo", "sink"} ports."""
    assert TOOL.is_file(), f"{TOOL} is missing: bash scripts/setup.sh app builds it"
    echo, sink, via_echo, via_sink = (_port() for _ in range(4))
    started = [subprocess.Popen([str(TOOL), "echo", "-listen", f"127.0.0.1:{echo}"]),
               subprocess.Popen([str(TOOL), "sink", "-listen", f"127.0.0.1:{sink}"]),
               subprocess.Popen([str(TOOL), "delay",
                                 f"-route=127.0.0.1:{via_echo}=127.0.0.1:{echo}",
                                 f"-route=127.0.0.1:{via_sink}=127.0.0.1:{sink}"],
                                stdout=subprocess.DEVNULL)]
    for _ in range(100):
        try:
            _tl("get")
            break
        except AssertionError:
            time.sleep(0.05)
    # another proxy holding the control address would answer "get" for this one
    assert started[2].poll() is None, "the proxy did not start: is another tl-net proxy running?"
    yield {"echo": f"127.0.0.1:{via_echo}", "sink": f"127.0.0.1:{via_sink}"}
    for process in started:
        process.kill()
        process.wait()


def _set(**setting) -> dict:
    flags = [f"-{key.replace('_', '-')}={value}" for key, value in setting.items()]
    return _tl("set", *flags)


def test_the_cap_is_the_rate_a_push_gets(proxy):
    assert _set(delay_us=0)["delay_us"] == 0
    for mbit in (100, 10):
        assert _set(rate_kbit=mbit * 1000)["rate_kbit"] == mbit * 1000
        pushed = _tl("send", "-to", proxy["sink"], "-bytes", str(int(mbit * 1e6 / 8 * 0.4)))
        assert 0.9 * mbit <= pushed["mbit_s"] <= 1.02 * mbit


def test_connections_share_one_link(proxy):
    _set(rate_kbit=8000, delay_us=0)
    with ThreadPoolExecutor(2) as pool:  # two pushes of 0.4 s each at the whole cap
        pushes = list(pool.map(lambda _: _tl("send", "-to", proxy["sink"], "-bytes", "400000"),
                               range(2)))
    together = sum(p["bytes"] for p in pushes) * 8 / max(p["seconds"] for p in pushes) / 1e6
    assert 7.0 <= together <= 8.2, pushes


def test_the_delay_is_added_to_every_round_trip(proxy):
    _set(rate_kbit=0, delay_us=0)
    plain = _tl("rtt", "-to", proxy["echo"], "-echo", "-n", "50")["median_us"]
    _set(delay_us=2000)
    delayed = _tl("rtt", "-to", proxy["echo"], "-echo", "-n", "50")["median_us"]
    _set(delay_us=0)
    assert 2000 <= delayed - plain <= 3000


def test_a_setting_out_of_range_is_refused(proxy):
    out = subprocess.run([str(TOOL), "set", "-rate-kbit=-5"], capture_output=True, text=True)
    assert out.returncode != 0 and "kbit must be 0 to 100000000" in out.stderr
    out = subprocess.run([str(TOOL), "set"], capture_output=True, text=True)
    assert out.returncode == 2 and "set needs -delay-us N or -rate-kbit N" in out.stderr
