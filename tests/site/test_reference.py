"""The hand-written reference pages agree with the code they describe (the generated ones are
checked in test_build.py and tests/unit/test_result_format.py)."""

from __future__ import annotations

import re

from sitekit import REPO
from tuninglab.jboss_cli import ALLOWED_OPERATIONS
from tuninglab.recipe import profile_defaults


def _page(name: str) -> str:
    return (REPO / "docs" / "reference" / name).read_text(encoding="utf-8")


def test_writing_a_recipe_names_the_operations_the_parser_accepts():
    text = _page("writing-a-recipe.md")
    bullet = next(p for p in text.split("\n- ") if p.startswith("WildFly settings"))
    named = set(re.findall(r"`([a-z-]+)`", bullet))
    assert set(ALLOWED_OPERATIONS) <= named, named
    # what the page says to leave out must really be rejected
    for word in ("reload", "batch"):
        assert word in named and word not in ALLOWED_OPERATIONS


def test_profile_keys_named_in_the_method_page_exist():
    text = (REPO / "docs" / "method.md").read_text(encoding="utf-8")
    keys = set().union(*(set(p) for p in profile_defaults().values()))
    named = set(re.findall(r"`([a-z_]+_s|blocks|points|interference|max_retries)`", text))
    assert named, "the method page names no profile key"
    assert named <= keys, named - keys


def test_the_result_format_page_names_every_metric_the_analysis_compares():
    from tuninglab.stats import METRIC_RULES
    text = _page("result-format.md")
    table = text[text.index("## Metrics"):text.index("## Older files")]
    named = set(re.findall(r"`([a-z0-9_]+)`", table))
    assert set(METRIC_RULES) <= named, set(METRIC_RULES) - named


def test_the_command_line_page_names_every_command():
    import argparse

    from tuninglab.cli import _parser
    commands = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    table = _page("cli.md").split("## Exit codes")[0]
    documented = set(re.findall(r"\| `tuninglab ([a-z]+)", table))
    assert set(commands.choices) == documented, set(commands.choices) ^ documented


def test_the_security_page_lists_what_the_preflight_refuses():
    """The page carries the generated block, and the block names every entry of the lists the
    preflight checks against (tuninglab/safety/), and the limits of a recipe file."""
    from tuninglab.recipe import MAX_RECIPE_BYTES
    from tuninglab.safety import jvm_options, postgresql, server_model
    from tuninglab.site import recipe_limits
    assert "<!-- recipe-limits -->" in _page("security.md")
    block = recipe_limits.render()
    for name in [*postgresql.REFUSED_PARAMETERS, *(f"*{s}" for s in postgresql.REFUSED_SUFFIXES),
                 *jvm_options.REFUSED_OPTIONS, *jvm_options.REFUSED_PREFIXES,
                 *(rule.address for rule in server_model.protected_rules()), *ALLOWED_OPERATIONS]:
        assert f"`{name}" in block, name
    for rule in server_model.protected_rules():
        for attribute in rule.attributes:
            if attribute not in (server_model.ADDING, "*"):
                assert f"`{attribute}`" in block, attribute
    assert f"{MAX_RECIPE_BYTES // 1024} KiB" in block


def test_the_security_page_claims_no_privileged_or_mounted_container():
    """What the page says of the containers holds in the code that creates them."""
    import pathlib
    code = "\n".join(p.read_text(encoding="utf-8")
                     for p in pathlib.Path(REPO / "tuninglab").rglob("*.py"))
    for word in ("privileged", "cap_add", "with_volume_mapping", "volumes="):
        assert word not in code, word
    assert "no container is privileged" in _page("security.md").lower()


def test_the_architecture_page_names_every_module_of_the_library():
    """A maintainer's map: each module under the stage it belongs to. A new module without its
    line here fails, and so does a line for a module that is gone."""
    import pathlib
    import re
    root = pathlib.Path(__file__).resolve().parents[2] / "tuninglab"
    modules = {p.relative_to(root).as_posix() for p in root.rglob("*.py")}
    page = _page("architecture.md")
    named = set(re.findall(r"^\| `([a-z0-9_/]+\.py)` \|", page, flags=re.M))
    assert sorted(modules - named) == [], "modules missing from the architecture page"
    assert sorted(named - modules) == [], "the page names modules that do not exist"
