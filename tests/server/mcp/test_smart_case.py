"""``search_text``'s smart case through the SDK's ClientSession, as the CLI's ``text`` and
ripgrep's ``--smart-case``: a query in lower case ignores case, one with a capital matches
case exactly, and ``case_sensitive`` given by the caller wins (issue 37, item 5)."""

from __future__ import annotations

from typing import Any

from tests.support.mcp import Workspace, call, mcp_session


def lines(answer: dict[str, Any]) -> set[tuple[str, int]]:
    return {(h["file"], h["line"]) for h in answer["hits"]}


async def test_search_text_smart_case(workspace: Workspace) -> None:
    async with mcp_session(workspace, tools="default") as session:
        lower = await call(session, "search_text", query="gateway", limit=50)
        capital = await call(session, "search_text", query="Gateway", limit=50)
        upper = await call(session, "search_text", query="GATEWAY", limit=50)
        told = await call(
            session, "search_text", query="GATEWAY", limit=50, options={"case_sensitive": False}
        )
        exact = await call(
            session, "search_text", query="gateway", limit=50, options={"case_sensitive": True}
        )
        regex = await call(session, "search_text", query=r"\w+gateway\b", regex=True, limit=50)
    # "gateway" in lower case finds "class PaymentGateway(ABC):" too
    assert ("shop/payments.py", 10) in lines(lower)
    # a capital makes the case count: only the lines with "Gateway" as written
    assert ("shop/payments.py", 10) in lines(capital)
    assert ("shop/service.py", 16) not in lines(capital)  # gateway = gateway or ...
    assert lines(capital) < lines(lower)
    assert upper["total"] == 0
    # the caller's case_sensitive wins over smart case, either way
    assert lines(told) == lines(lower)
    assert ("shop/payments.py", 10) not in lines(exact)
    assert ("shop/service.py", 16) in lines(exact)
    # a regex's escapes (\w, \b) are not capitals: lower case, so case is ignored
    assert ("shop/payments.py", 18) in lines(regex)  # class CardGateway(PaymentGateway):
