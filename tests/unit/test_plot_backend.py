"""Figures show in notebooks: the library picks the headless backend only where nobody chose one
(the site build, the CLI), never over the inline backend a Jupyter kernel sets. Until
2026-11-25 it forced Agg everywhere, and no published notebook carried its plots."""
import os
import subprocess
import sys

PROBE = "import tuninglab.plot, matplotlib; print(matplotlib.get_backend())"


def _backend(env_backend):
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    if env_backend:
        env["MPLBACKEND"] = env_backend
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True,
                         check=True)
    return out.stdout.strip().lower()


def test_a_jupyter_kernel_keeps_its_inline_backend():
    assert _backend("module://matplotlib_inline.backend_inline").endswith("backend_inline")


def test_headless_elsewhere():
    assert _backend(None) == "agg"
