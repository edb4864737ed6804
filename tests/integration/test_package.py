"""The library installed as a package (a wheel of this repository, not editable), used from a
folder outside the checkout: it carries its own files (setup.py, tuninglab/_library), so
`tuninglab init` writes a workspace, the workspace's recipes validate against the images, and
one of them runs on the example app in the quick profile; the stack's inputs hash as in the
checkout, so a result measured from the package names the same stack."""
import ast
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tuninglab import layout, staleness


def _setup_files(name: str) -> tuple[str, ...]:
    """What setup.py puts into the package beside the code, read from it (so that the test's
    copy of the sources cannot part from what the build copies)."""
    for node in ast.parse((layout.REPO_ROOT / "setup.py").read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == name:
            return ast.literal_eval(node.value)
    raise AssertionError(f"setup.py names no {name}")


LIBRARY_FILES = _setup_files("LIBRARY_FILES")
BUILT_FILES = _setup_files("BUILT_FILES")  # set-up's output the package carries too


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A virtual environment with the wheel of this checkout installed, its dependencies taken
    from the test's own environment (a .pth file: no download of numpy and the rest), and a
    folder outside the checkout to work in."""
    root = tmp_path_factory.mktemp("package")
    source, wheels = root / "source", root / "wheels"
    # what the wheel is built from, copied (pip builds a folder in place: no build/ in the
    # checkout)
    for name in ("pyproject.toml", "setup.py", "tuninglab", *LIBRARY_FILES):
        path = layout.REPO_ROOT / name
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns(
                "target", "__pycache__", "_library"))
        else:
            shutil.copy2(path, source / name)
    for name in BUILT_FILES:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(layout.REPO_ROOT / name, source / name)
    # pip builds it as a user would, fetching the build back end pyproject.toml names
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(wheels), str(source)], capture_output=True, text=True,
                           timeout=300)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "tuninglab-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (wheel,) = wheels.glob("tuninglab-*.whl")
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                              "--no-deps", "--no-index", "-q", str(wheel)],
                             capture_output=True, text=True, timeout=300)
    if install.returncode != 0 and "no such option: --python" in install.stderr:
        install = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps",
                                  "--no-index", "-q", "--target", str(site), str(wheel)],
                                 capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]
    outside = root / "elsewhere"
    outside.mkdir()
    return venv, outside


def _run(venv, cwd, *args, timeout=300):
    # the test command sends quick results to a folder of its own (TUNINGLAB_RESULTS_DIR); here
    # they must land in the workspace, as they do for a user
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TUNINGLAB_WORKSPACE") and k != "TUNINGLAB_RESULTS_DIR"}
    return subprocess.run([str(venv / "bin" / "tuninglab"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_the_package_carries_the_library_s_files_and_hashes_the_stack_as_the_checkout(installed):
    venv, outside = installed
    done = subprocess.run([str(venv / "bin" / "python"), "-c",
                           "from tuninglab import apps, layout, staleness; "
                           "print(layout.REPO_ROOT); print(staleness.stack_inputs_hash()); "
                           "print(len(apps.default_app().war()))"],
                          cwd=outside, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    root, digest, war_bytes = done.stdout.split()
    assert root.endswith("tuninglab/_library") and str(layout.REPO_ROOT) not in root
    assert digest == staleness.stack_inputs_hash()
    # no image carries the lab's own app: the package does, for a recipe that drives it
    assert int(war_bytes) > 0


def test_init_validate_and_a_quick_run_from_a_folder_outside_the_checkout(installed):
    venv, outside = installed
    made = _run(venv, outside, "init", "lab")
    assert made.returncode == 0, made.stdout + made.stderr
    workspace = outside / "lab"
    checked = _run(venv, outside, "--workspace", str(workspace), "validate")
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-3000:]
    assert checked.stdout.count("ok ") == 3  # the example's three recipes
    ran = _run(venv, outside, "--workspace", str(workspace), "run", "shop-pool-size")
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "quick run, no claim: the change applied and read back" in ran.stdout
    stored = list((workspace / "results" / "shop-pool-size").glob("*.json"))
    assert len(stored) == 1  # in the workspace, not in the checkout or the package
