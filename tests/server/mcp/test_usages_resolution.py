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
        every = await call(session, "find_usages", target="Node.text", min_confidence=0)
    assert [(u["line"], u["resolution"]) for u in send["usages"]] == [(44, "type")]
    # `cleaner.clean(dirty).text()`: Element.text(String) or the text() Element inherits
    # from Node, which the arguments would choose: a guess between the two
    sure = [(u["file"], u["line"]) for u in text["usages"]]
    assert ("java/src/org/shop/app/Cleaner.java", 36) not in sure
    assert text["unresolved"] == 1
    guesses = [(u["line"], u["resolution"]) for u in every["usages"] if u not in text["usages"]]
    assert guesses == [(36, "type")]
