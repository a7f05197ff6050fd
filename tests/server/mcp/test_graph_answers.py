"""find_usages and dead_code through the MCP client on tests/fixtures/graph_answers
(issue 36): a dict-literal value and a ``this.method`` passed as a callback are usages;
Go's init, interface methods and re-exported TypeScript API are not dead code."""

from __future__ import annotations

from pathlib import Path

from tests.support.mcp import Workspace, call, dead_rows, fixture_workspace, mcp_session


def graph_workspace(tmp_path: Path) -> Workspace:
    return fixture_workspace(tmp_path, "graph_answers")


async def test_usages_and_dead_code_an_agent_can_act_on(tmp_path: Path) -> None:
    ws = graph_workspace(tmp_path)
    async with mcp_session(ws) as session:
        decoder = await call(session, "find_usages", name="GZipDecoder")
        tick = await call(session, "find_usages", name="Poller.tick")
        dead = await call(session, "dead_code", include_tests="true")
        low = await call(session, "dead_code", min_confidence=0.0, language="go")
    uses = {(u["file"], u["line"], u["kind"]) for u in decoder["usages"]}
    assert ("py/httpkit/decoders.py", 23, "reference") in uses  # "gzip": GZipDecoder
    assert ("py/httpkit/__init__.py", 4, "import") in uses
    assert [(u["line"], u["kind"]) for u in tick["usages"]] == [(9, "reference")]
    reported = {row["symbol_id"] for row in dead_rows(dead)}
    assert "go/codec/codec.go::unusedHelper#function" in reported
    assert not any("::init#" in i or "_tuple" in i or "MarshalJSON" in i for i in reported)
    go = {row["symbol_id"]: (row["confidence"], row["reason"]) for row in dead_rows(low)}
    assert not any("::init#" in i for i in go)
    confidence, reason = go["go/codec/codec.go::Error.MarshalJSON#method"]
    assert confidence == 0.1
    assert reason.startswith("unreferenced, but MarshalJSON is a method of json.Marshaler")
