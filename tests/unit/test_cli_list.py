"""`tuninglab list` over the repository's own recipes and stored results."""
from __future__ import annotations

from tuninglab import cli, layout


def test_list_names_every_recipe_and_says_a_curve_has_no_single_verdict(capsys, monkeypatch):
    """A valid curve's result stores no verdict (users-load-curve, jvm-gc-collector): the
    listing once failed on it with a TypeError. The test command points results at a
    temporary folder, so this test reads the repository's own on purpose."""
    monkeypatch.setenv("TUNINGLAB_RESULTS_DIR", str(layout.REPO_ROOT / "results"))
    assert cli.main(["list"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:]}
    assert "a curve (no single verdict)" in rows["users-load-curve"]
    assert "no significant change" in rows["aa-noise-restart"]
