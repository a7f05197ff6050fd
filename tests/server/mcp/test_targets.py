"""Names everywhere, through the MCP client (issue 36, item 5): get_symbol takes a name
(`raise_for_status`), every symbol-taking tool takes an id, a name, a qualified name or
path:line, and an ambiguous name is answered alike: the candidates with their ids,
qualified names and files, and the target to pass for each."""

from __future__ import annotations

from pathlib import Path

from tests.support.mcp import call, call_error, fixture_workspace, hits, mcp_session

RAISE = "minihttp/_models.py::Response.raise_for_status#method"
CLIENT_SEND = "minihttp/_client.py::Client.send#method"


async def test_get_symbol_takes_a_name(tmp_path: Path) -> None:
    ws = fixture_workspace(tmp_path, "usages_truth/python")
    async with mcp_session(ws) as session:
        by_name = await call(session, "get_symbol", target="raise_for_status")
        qualified = await call(session, "get_symbol", target="Response.raise_for_status")
        at_line = await call(session, "get_symbol", target="minihttp/_models.py:17")
    assert [a["symbol"]["symbol_id"] for a in (by_name, qualified, at_line)] == [RAISE] * 3


async def test_an_ambiguous_name_gets_one_answer_from_every_tool(tmp_path: Path) -> None:
    ws = fixture_workspace(tmp_path, "usages_truth/python")
    async with mcp_session(ws) as session:
        errors = {
            tool: await call_error(session, tool, target="send")
            for tool in ("get_symbol", "find_usages", "callers", "callees", "impact")
        }
        hierarchy = await call(session, "type_hierarchy", target="minihttp/_client.py:4")
        impact = await call(session, "impact", target="_client.Client.send")
        offered = await call(session, "callers", target="Client.send")
        by_line = await call(session, "callers", target="minihttp/_client.py:9")
    for tool, message in errors.items():
        assert "'send' names 3 definitions; pass one of them as the target: " in message, tool
        assert (
            f'"Client.send" (method minihttp._client.Client.send in minihttp/_client.py:9, '
            f"id {CLIENT_SEND})"
        ) in message, tool
        assert '"AsyncClient.send" (' in message, tool
        assert '"FakeClient.send" (' in message, tool
        assert "symfuse " not in message, tool  # no CLI words
    assert offered["symbol"]["symbol_id"] == by_line["symbol"]["symbol_id"] == CLIENT_SEND
    assert [s["name"] for s in hierarchy["subtypes"]] == ["FakeClient"]
    assert impact["changed"] == [CLIENT_SEND]


async def test_callers_of_overloads_name_each_one(tmp_path: Path) -> None:
    """A C++ name two headers overload: `callers` walks from both, says which are the
    other overloads, and each row's `via` is the overload it reaches."""
    from tests.ranking.test_targets import CPP_OVERLOADS
    from tests.support.mcp import Workspace

    root = tmp_path / "ws"
    for path, text in CPP_OVERLOADS.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    (tmp_path / "home").mkdir()
    ws = Workspace(root, tmp_path / "index", tmp_path / "home", tmp_path / "stderr.log")
    async with mcp_session(ws) as session:
        answer = await call(session, "callers", target="vformat")
    ids = [answer["symbol"]["symbol_id"], *answer["overloads"]]
    assert sorted(i.split("::")[0] for i in ids) == ["include/format.h", "include/xchar.h"]
    root = answer["symbol"]["symbol_id"]  # a row without `via` reaches the target itself
    assert {(row["name"], row.get("via", root)) for row in hits(answer)} <= {
        ("format", i) for i in ids
    } | {("wformat", i) for i in ids}
    assert len(answer["items"]) == 2


async def test_get_symbol_reads_the_most_linked_of_overloads(tmp_path: Path) -> None:
    """`Printer.print` names three overloads: get_symbol reads the one called most and
    lists the others, rather than refusing the name."""
    from tests.support.mcp import Workspace

    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src/Printer.java").write_text(
        "public class Printer {\n"
        "  public void print() { }\n"
        "  public void print(String s, int times) { }\n"
        "  public void print(int n, String s, int times) { print(s, times); }\n"
        "}\n"
    )
    (root / "src/Main.java").write_text(
        "public class Main {\n"
        '  public static void main(String[] a) { Printer p = new Printer(); p.print("x", 1);'
        ' p.print("y", 2); }\n'
        "}\n"
    )
    (tmp_path / "home").mkdir()
    ws = Workspace(root, tmp_path / "index", tmp_path / "home", tmp_path / "stderr.log")
    async with mcp_session(ws) as session:
        answer = await call(session, "get_symbol", target="Printer.print")
    assert answer["symbol"]["symbol_id"] == "src/Printer.java::Printer.print#method~2"
    assert sorted(answer["symbol"]["overloads"]) == [
        "src/Printer.java::Printer.print#method",
        "src/Printer.java::Printer.print#method~3",
    ]
