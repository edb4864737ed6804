"""The notebook run's failure brief (notebooks/conftest.py): CI shows only the head and the tail
of the test command's output, so the tail must say where in the lab a cell failed and why."""
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "notebook_conftest", Path(__file__).parents[2] / "notebooks" / "conftest.py")
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)

# As nbval reports a cell's exception: IPython's frames, coloured, the libraries' among the lab's.
IPYTHON_TRACEBACK = "\n".join([
    "\x1b[31mTimeoutError\x1b[39m                              Traceback (most recent call last)",
    "\x1b[36mFile \x1b[39m\x1b[32m/home/ci/lab/tuninglab/experiment.py:135\x1b[39m, in "
    "\x1b[36mrun_recipe\x1b[39m\x1b[34m(recipe, profile)\x1b[39m",
    "\x1b[36mFile \x1b[39m\x1b[32m/home/ci/lab/tuninglab/stack.py:442\x1b[39m, in "
    "\x1b[36mStack._reset_and_boot.<locals>.reset\x1b[39m\x1b[34m(name)\x1b[39m",
    "\x1b[36mFile \x1b[39m\x1b[32m/home/ci/lab/.venv/lib/python3.11/site-packages/urllib3/"
    "connectionpool.py:540\x1b[39m, in \x1b[36mHTTPConnectionPool._make_request\x1b[39m",
    "\x1b[31mTimeoutError\x1b[39m: timed out",
    "The above exception was the direct cause of the following exception:",
    "\x1b[31mReadTimeout\x1b[39m: UnixHTTPConnectionPool(host='localhost', port=None): Read "
    "timed out. (read timeout=60)",
])


def test_the_brief_names_the_labs_frames_and_the_last_exception():
    assert conftest.brief(IPYTHON_TRACEBACK) == [
        "at tuninglab/experiment.py:135 run_recipe",
        "at tuninglab/stack.py:442 Stack._reset_and_boot.<locals>.reset",
        "ReadTimeout: UnixHTTPConnectionPool(host='localhost', port=None): Read timed out. "
        "(read timeout=60)",
    ]


def test_python_frames_count_too_and_only_the_last_few_are_kept():
    text = "\n".join([f'  File "/w/tuninglab/m{i}.py", line {i}, in f{i}' for i in range(6)]
                     + ["RuntimeError: k6 exited 1"])
    assert conftest.brief(text, frames=2) == [
        "at tuninglab/m4.py:4 f4", "at tuninglab/m5.py:5 f5", "RuntimeError: k6 exited 1"]


def test_a_traceback_without_an_exception_line_says_so():
    assert conftest.brief("Cell timed out after 600 s") == ["(no exception line found)"]
