"""The jboss-cli subset that change files are written in, and how a set-up file is sent."""
import pytest

from tuninglab.jboss_cli import CliSyntaxError, Operation, parse_text
from tuninglab.management import Response, apply_operations


def test_write_attribute_with_comments_and_continuation():
    ops = parse_text(
        "# size the pool\n"
        "\n"
        "/subsystem=datasources/data-source=OrderDS:write-attribute(\\\n"
        "   name=max-pool-size,value=32)\n",
        "change.cli")
    assert ops == [Operation((("subsystem", "datasources"), ("data-source", "OrderDS")),
                             "write-attribute", {"name": "max-pool-size", "value": 32},
                             "change.cli:3")]
    assert str(ops[0]) == ("/subsystem=datasources/data-source=OrderDS:"
                           "write-attribute(name=max-pool-size,value=32)")


def test_values_are_typed_and_quoted_strings_stay_strings():
    (op,) = parse_text('/system-property=x:add(value="20")')
    assert op.params == {"value": "20"}
    (op,) = parse_text("/a=b:write-attribute(name=flag,value=true)")
    assert op.params["value"] is True
    assert str(op) == "/a=b:write-attribute(name=flag,value=true)"
    (op,) = parse_text("/a=b:write-attribute(name=list,value=[x,\"y,z\"])")
    assert op.params["value"] == ["x", "y,z"]


def test_add_and_undefine():
    ops = parse_text("/system-property=tl.a:add(value=1)\n/a=b:undefine-attribute(name=c)")
    assert [op.name for op in ops] == ["add", "undefine-attribute"]


@pytest.mark.parametrize("line, message", [
    ("reload", "only addressed operations"),
    ("/a=b:remove", "operation 'remove' is not supported; allowed: write-attribute, "
                    "undefine-attribute, add"),
    ("/a=b:write-attribute(name=x)", "write-attribute needs value"),
    ("/a:write-attribute(name=x,value=1)", "address element 'a' is not type=name"),
    ("/a=b:write-attribute(name=x,value=1", "unbalanced parentheses"),
    ("/a=b", "missing ':operation'"),
    ("/a=b:add(x=1){rollout main-server-group}",
     "operation header 'rollout main-server-group' is not supported; "
     "allowed: allow-resource-service-restart=true"),
    ("/a=b:add(x=1){allow-resource-service-restart=false}", "is not supported"),
    ("/a=b:add(x=1){allow-resource-service-restart=1}", "is not supported"),
    ("/a=b:add(x=1)}", "unbalanced braces"),
])
def test_bad_lines_name_the_file_the_line_and_what_is_allowed(line, message):
    with pytest.raises(CliSyntaxError) as err:
        parse_text(f"# header\n{line}\n", "recipes/x/change.cli")
    assert str(err.value).startswith("recipes/x/change.cli:2: ")
    assert message in str(err.value)


def test_a_file_without_operations_is_an_error():
    with pytest.raises(CliSyntaxError, match="no operation found"):
        parse_text("# only a comment\n", "empty.cli")


class _Recorder:
    """A management client that records what it is sent and answers success."""

    def __init__(self):
        self.sent = []

    def execute(self, operation, address=(), **params):
        self.sent.append((operation, [tuple(a) for a in address] if operation != "composite"
                          else [s["address"] for s in params["steps"]]))
        return Response({}, {})


def test_an_add_and_the_adds_of_its_children_go_as_one_composite():
    ops = parse_text(
        "/subsystem=datasources/xa-data-source=X:add(jndi-name=java:/X)\n"
        "/subsystem=datasources/xa-data-source=X/xa-datasource-properties=ServerName:add(value=db)\n"
        "/subsystem=datasources/xa-data-source=X/xa-datasource-properties=DatabaseName:add(value=m)\n"
        "/subsystem=datasources/data-source=Y:add(jndi-name=java:/Y)\n"
        "/subsystem=io/worker=default:write-attribute(name=task-max-threads,value=4)\n")
    client = _Recorder()
    assert apply_operations(client, ops) is False
    assert [name for name, _ in client.sent] == ["composite", "add", "write-attribute"]
    assert len(client.sent[0][1]) == 3  # the data source and its two properties


def test_a_write_may_change_the_attributes_that_follow_it_and_no_others():
    """The crossover's check that two nodes differ only where the change writes allows the
    model's aliases of a written attribute (ejb3's deprecated default-clustered-sfsb-cache
    follows default-sfsb-cache) and nothing else."""
    from tuninglab.changes.model import touched_prefixes
    ops = parse_text("/subsystem=ejb3:write-attribute(name=default-sfsb-cache,value=distributable)\n"
                     "/subsystem=datasources/data-source=OrderDS:add(jndi-name=x)\n", "change.cli")
    assert touched_prefixes(ops) == ["/subsystem/ejb3/default-sfsb-cache",
                                     "/subsystem/ejb3/default-clustered-sfsb-cache",
                                     "/subsystem/datasources/data-source/OrderDS"]


def test_a_line_may_ask_for_its_services_restarted_instead_of_a_reload():
    """{allow-resource-service-restart=true} goes to the server with the operation (and with
    its undoing), and shows in the operation's text; a line without it sends no header."""
    from tuninglab.changes.model import Recorded, restore
    from tuninglab.management import apply_operation
    [plain, restarted] = parse_text(
        "/subsystem=io/worker=default:write-attribute(name=task-max-threads,value=4)\n"
        "/subsystem=infinispan/cache-container=web/distributed-cache=dist:write-attribute("
        "name=statistics-enabled,value=true) { allow-resource-service-restart=true }\n")
    assert plain.headers == {} and restarted.headers == {"allow-resource-service-restart": True}
    assert str(restarted).endswith("value=true){allow-resource-service-restart=true}")
    sent = []

    class _Client:
        def execute(self, operation, address=(), **params):
            sent.append((operation, params))
            return Response({}, {})

        def read_attribute(self, address, name, include_defaults=True):
            return True
    apply_operation(_Client(), plain)
    apply_operation(_Client(), restarted)
    restore(_Client(), restarted, Recorded(existed=True, defined=False, effective=False))
    assert "operation-headers" not in sent[0][1]
    assert [params.get("operation-headers") for _, params in sent[1:]] == [
        {"allow-resource-service-restart": True}] * 2
