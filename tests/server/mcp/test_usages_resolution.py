"""find_usages through the MCP client (issue 36, item 2): how each usage was linked, a
declared receiver type deciding the method, guesses counted and shown on request."""

from __future__ import annotations

from pathlib import Path

from tests.support.mcp import call, fixture_workspace, mcp_session


async def test_find_usages_says_how_sure_it_is(tmp_path: Path) -> None:
    ws = fixture_workspace(tmp_path, "usages_truth")
    async with mcp_session(ws) as session:
        send = await call(session, "find_usages", target="Outbox.Send")
        text = await call(session, "find_usages", target="Node.text")
        raw = await call(session, "find_usages", target="Headers.raw")
        every = await call(session, "find_usages", target="Headers.raw", min_confidence=0)
    assert [(u["line"], u["resolution"]) for u in send["usages"]] == [(44, "type")]
    # `cleaner.clean(dirty).text()`: `clean` returns Element, whose own text(String) the
    # call passing no argument is not: the text() it inherits from Node, sure
    sure = [(u["file"], u["line"], u["resolution"]) for u in text["usages"]]
    assert ("java/src/org/shop/app/Cleaner.java", 36, "type") in sure
    assert "unresolved" not in text
    # JavaScript's `this.raw` of a class of its own: TypeScript's Headers.raw by name, 0.4
    assert raw["unresolved"] == 2
    guesses = [(u["file"], u["line"], u["resolution"]) for u in every["usages"]]
    guesses = [g for g in guesses if g[0] == "javascript/src/headers.js"]
    assert guesses == [
        ("javascript/src/headers.js", 3, "name"),
        ("javascript/src/headers.js", 7, "name"),
    ]
