"""What part a file plays beside the product code: tests, examples, benchmarks, fixtures.

A reader asking in plain words how something is done wants the code that does it,
not the tests that call it: ``prompt the user for a password`` should find
``click.termui.prompt`` before five test functions named ``cli``. Search demotes
such code for prose queries (:mod:`symfuse.ranking.search.plans`) unless the query asks
for it ("test for", "example of", "how to use") and ``include_tests`` can keep it
out or ask for it alone. Nothing is ever dropped from the index.

Roles come from each language's path and name conventions, read from the path
alone, so that a file's role never needs its text:

- folders: ``tests``, ``test`` (outside Python, where ``django/test`` is product
  code), ``__tests__``, ``spec``, ``testdata``, ``fixtures``, ``__mocks__``,
  ``src/test`` (Maven and Gradle), ``examples``, ``benchmarks`` and the like;
- files: ``test_*.py``, ``*_test.py``, ``conftest.py``, ``*_test.go``,
  ``*.test.ts``, ``*.spec.js``, ``*Test.java``, ``*_spec.rb``, ``*_test.cc`` ...
"""

from __future__ import annotations

import re
from enum import StrEnum

# Folder names (lower-cased) whose files are all of a role.
_TEST_DIRS = frozenset(
    {"tests", "__tests__", "spec", "specs", "testdata", "test-data", "testing_utils", "e2e"}
)
_FIXTURE_DIRS = frozenset({"fixtures", "__fixtures__", "__mocks__", "mocks", "testdata"})
_EXAMPLE_DIRS = frozenset({"examples", "example", "samples", "sample", "demo", "demos"})
_BENCH_DIRS = frozenset({"benchmarks", "benchmark", "benches", "bench", "perf"})

_TEST_FILE = re.compile(
    r"""(
        ^test_.*\.py$ | .*_test\.py$ | ^tests?\.py$ | ^conftest\.py$      # python
      | .*_test\.go$                                                    # go
      | .*\.(test|spec)\.[cm]?[jt]sx?$                                  # javascript, typescript
      | .*(Test|Tests|IT|Spec)\.(java|kt|scala|groovy)$                 # jvm
      | .*_(test|spec)\.rb$                                             # ruby
      | ^test_.*\.(c|cc|cpp|cxx)$ | .*_(test|unittest)\.(c|cc|cpp|cxx)$ # c, c++
      | .*Tests?\.cs$ | .*_test\.rs$ | .*Test\.php$                    # c#, rust, php
      | .*Tests?\.swift$ | .*_test\.exs$ | .*Spec\.hs$ | .*_spec\.lua$  # swift, elixir, ...
      | ^tests?\.\w+$                                                   # test.c, tests.rs
    )""",
    re.X,
)
# A source set of tests, as Gradle and Kotlin Multiplatform name them: jvmTest, commonTest,
# androidTest, integrationTest (camel case: "latest" is not one).
_TEST_SOURCE_SET = re.compile(r"^[a-z][a-zA-Z]*Tests?$")
_BENCH_FILE = re.compile(r"(^bench_.*|.*_bench(mark)?s?)\.\w+$")
_PYTHON = re.compile(r"\.pyi?$")


class Role(StrEnum):
    """A file's part in its repository."""

    PRODUCT = "product"
    TEST = "test"
    EXAMPLE = "example"
    BENCHMARK = "benchmark"


def role_of(path: str) -> Role:
    """The role of the file at workspace-relative ``path`` (POSIX separators)."""
    parts = path.lower().split("/")
    folders, name = parts[:-1], path.rsplit("/", 1)[-1]
    if _TEST_FILE.match(name):
        return Role.TEST
    if any(_TEST_SOURCE_SET.match(folder) for folder in path.split("/")[:-1]):
        return Role.TEST
    for i, folder in enumerate(folders):
        if folder in _TEST_DIRS or folder in _FIXTURE_DIRS:
            return Role.TEST
        if folder == "test" and (not _PYTHON.search(name) or i == 0):
            return Role.TEST
        if folder == "src" and i + 1 < len(folders) and folders[i + 1] == "test":
            return Role.TEST
        if folder in _EXAMPLE_DIRS:
            return Role.EXAMPLE
        if folder in _BENCH_DIRS:
            return Role.BENCHMARK
    if _BENCH_FILE.match(name.lower()):
        return Role.BENCHMARK
    return Role.PRODUCT


# Phrases by which a query asks for tests, examples or benchmarks itself.
_ASKS = re.compile(
    r"\b(tests?|testing|unit\s*tests?|spec|specs|fixtures?|mocks?|examples?|"
    r"how\s+(to|do\s+i|can\s+i)\s+use|demo|benchmarks?|sample\s+code)\b",
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
