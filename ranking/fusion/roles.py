"""What part a file plays beside the product code (:mod:`symfuse.indexer.files.roles`),
and the phrases by which a query asks for it.

A reader asking in plain words how something is done wants the code that does it,
not the tests that call it: ``prompt the user for a password`` should find
``click.termui.prompt`` before five test functions named ``cli``. Search demotes
such code for prose queries (:mod:`symfuse.ranking.search.plans`) unless the query asks
for it ("test for", "example of", "how to use") and ``include_tests`` can keep it
out or ask for it alone. Nothing is ever dropped from the index.
"""

from __future__ import annotations

import re

from symfuse.indexer.files.roles import Role, role_of

__all__ = ["Role", "asks_for_documents", "asks_for_side_code", "role_of"]


# Phrases by which a query asks for tests, examples, benchmarks or vendored code itself.
# Tests are asked for as such ("tests for X", "integration tests", "test cases", "where
# is it tested", a query opening with "test"); "test" or "testing" before a product's
# own concept ("the test sandbox", "chaos testing", "from a test") asks for the product
# code that serves tests, and "spec" is as often a standard ("the Rack SPEC").
_ASKS = re.compile(
    r"^\s*tests?\b|\b(tests|tested|specs|test\s+(for|of|that|which|cases?|suites?|files?|coverage)|"
    r"unit\s*test|fixtures?|mocks?|examples?|"
    r"how\s+(to|do\s+i|can\s+i)\s+use|demo|benchmarks?|sample\s+code|"
    r"vendor(ed)?|third[- ]party|bundled)\b",
    re.I,
)


def asks_for_side_code(query: str) -> bool:
    """Whether ``query`` asks for tests, examples or benchmarks ("test for X", "example of")."""
    return _ASKS.search(query) is not None


# Words by which a query asks for what documents and data files define.
_ASKS_DOCUMENTS = re.compile(
    r"\b(headings?|sections?|chapters?|readme|docs?|documentation|keys?|settings?|config\w*)\b",
    re.I,
)


def asks_for_documents(query: str) -> bool:
    """Whether ``query`` asks for headings or keys ("install section", "ruff settings")."""
    return _ASKS_DOCUMENTS.search(query) is not None
