"""server_modules.py: what a recipe's baseline installs in WildFly, found and checked before a
node is touched; and the management model's view of a baseline the change writes over."""
from __future__ import annotations

import pytest

from tuninglab import server_modules
from tuninglab.changes import model
from tuninglab.jboss_cli import Operation

MODULE_XML = """<?xml version="1.0" encoding="UTF-8"?>
<module xmlns="urn:jboss:module:1.9" name="lab.sample">
    <resources><resource-root path="sample.jar"/></resources>
</module>
"""


def _module(root, xml=MODULE_XML, jar: bytes | None = b"PK\x03\x04jar"):
    folder = root / "server-modules" / "sample"
    folder.mkdir(parents=True)
    (folder / "module.xml").write_text(xml)
    if jar is not None:
        (folder / "target").mkdir()
        (folder / "target" / "sample.jar").write_bytes(jar)
    return folder


def test_a_module_goes_under_its_name_as_a_path(tmp_path):
    _module(tmp_path)
    module = server_modules.load("sample", tmp_path)
    assert module.name == "lab.sample"
    assert module.files() == {
        "/opt/wildfly/modules/lab/sample/main/module.xml": MODULE_XML.encode(),
        "/opt/wildfly/modules/lab/sample/main/sample.jar": b"PK\x03\x04jar"}


def test_an_unknown_module_names_the_ones_there_are(tmp_path):
    _module(tmp_path)
    with pytest.raises(server_modules.ServerModuleError,
                       match=r"server-modules/nope/module.xml not found; allowed modules: sample"):
        server_modules.load("nope", tmp_path)


def test_a_module_not_built_says_how_to_build_it(tmp_path):
    _module(tmp_path, jar=None)
    with pytest.raises(server_modules.ServerModuleError,
                       match=r"target/sample.jar is not built; run: bash scripts/setup.sh app"):
        server_modules.load("sample", tmp_path)


def test_a_module_xml_without_a_resource_is_refused(tmp_path):
    _module(tmp_path, xml='<module xmlns="urn:jboss:module:1.9" name="lab.sample"/>')
    with pytest.raises(server_modules.ServerModuleError, match="resource-root"):
        server_modules.load("sample", tmp_path)


def test_the_repository_module_is_found():
    assert "debug-statements" in server_modules.available()


def test_an_add_loses_only_the_attributes_the_change_writes():
    prop = (("system-property", "tl.style"),)
    add = Operation(prop, "add", {"value": "unguarded"})
    write = Operation(prop, "write-attribute", {"name": "value", "value": "guarded"})
    trimmed = model.without_attributes(add, {model.target(write)})
    assert trimmed.params == {} and add.params == {"value": "unguarded"}
    other = Operation((("system-property", "tl.other"),), "add", {"value": "1"})
    assert model.without_attributes(other, {model.target(write)}) is other
    assert model.without_attributes(write, {model.target(write)}) is write
