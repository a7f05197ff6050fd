"""What part a file plays beside the product code, from its path: tests, examples,
benchmarks, fixtures, vendored copies of other projects.

Roles come from each language's path and name conventions, read from the path
alone, so that a file's role never needs its text:

- folders: ``tests``, ``test`` (outside Python, where ``django/test`` is product
  code), ``__tests__``, ``spec``, ``testdata``, ``fixtures``, ``__mocks__``,
  ``src/test`` (Maven and Gradle), ``examples``, ``benchmarks`` and the like, and the
  code a documentation tree shows (``docs/code/**``, ``Snippets/``);
- files: ``test_*.py``, ``*_test.py``, ``conftest.py``, ``*_test.go``,
  ``*.test.ts``, ``*.spec.js``, ``*Test.java``, ``*_spec.rb``, ``*_test.cc`` ...
- vendored: ``vendor/``, ``third_party/``, ``deps/``, ``bower_components/``, minified or
  bundled scripts (``*.min.js``), the scripts a generated documentation site ships
  (``docs/**/*.js``: a jQuery plugin in Alamofire's docs ranked among its answers), and
  a project's code amalgamated into one file (``single_include/``, ``amalgamation/``).

The index reads them where a file's role changes what is extracted (regions, which only
product code and examples get: extract/units.py); the ranking demotes side code
(:mod:`symfuse.ranking.fusion.roles`).
"""

from __future__ import annotations

import re
from enum import StrEnum

# Folder names (lower-cased) whose files are all of a role.
_TEST_DIRS = frozenset(
    {"tests", "__tests__", "spec", "specs", "testdata", "test-data", "testing_utils", "e2e"}
    | {"testharness", "test_harness", "test-harness", "testutils", "test_utils", "test-utils"}
)
_TEST_WORDS = frozenset({"test", "tests", "testing"})
_FIXTURE_DIRS = frozenset({"fixtures", "__fixtures__", "__mocks__", "mocks", "testdata"})
# docs_src: the code a documentation site includes (FastAPI, Typer, SQLModel); each also
# with leading underscores (Go's tools skip `_examples/`)
_EXAMPLE_DIRS = frozenset(
    {"examples", "example", "samples", "sample", "demo", "demos", "docs_src", "doc_src"}
)
_BENCH_DIRS = frozenset({"benchmarks", "benchmark", "benches", "bench", "perf"})
_VENDOR_DIRS = frozenset(
    {"vendor", "vendored", "_vendor", "third_party", "thirdparty", "third-party", "deps"}
    | {"bower_components", "node_modules"}
    # a project's own headers or sources generated into one file (nlohmann/json's
    # single_include/nlohmann/json.hpp, SQLite's amalgamation): a copy of the code beside it
    | {"single_include", "amalgamation", "amalgamated"}
)
_DOC_DIRS = frozenset({"docs", "doc", "_static", "site"})
# A documentation tree's content (the snippets and examples its pages include, its site's
# source) in folders below it; the code right in it builds the pages (Sphinx's conf.py,
# a script that writes the man page) and stays product code. Not `doc`, which is a
# package's name as often (cobra/doc, Go's go/doc); not the pages themselves.
_DOC_TREES = frozenset({"docs", "documentation"})
_SNIPPET_DIRS = frozenset({"snippets"})  # code a documentation site includes (Polly's)
_PAGES = re.compile(r".*\.(md|markdown|mdx|rst|txt|adoc|ya?ml|toml|json)$", re.I)
_BUNDLED = re.compile(r".*[.-](min|bundle)\.[cm]?js$")

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
    VENDORED = "vendored"


def role_of(path: str) -> Role:
    """The role of the file at workspace-relative ``path`` (POSIX separators)."""
    parts = path.lower().split("/")
    folders, name = parts[:-1], path.rsplit("/", 1)[-1]
    if _vendored(folders, name.lower()):
        return Role.VENDORED
    if _TEST_FILE.match(name):
        return Role.TEST
    if any(_TEST_SOURCE_SET.match(folder) for folder in path.split("/")[:-1]):
        return Role.TEST
    for i, folder in enumerate(folders):
        if folder in _TEST_DIRS or folder in _FIXTURE_DIRS or _tests_named(folder):
            return Role.TEST
        if folder == "test" and (not _PYTHON.search(name) or i == 0):
            return Role.TEST
        if folder == "src" and i + 1 < len(folders) and folders[i + 1] == "test":
            return Role.TEST
        if folder.lstrip("_") in _EXAMPLE_DIRS or _shown(folder, i < len(folders) - 1, name):
            return Role.EXAMPLE
        if folder in _BENCH_DIRS:
            return Role.BENCHMARK
    if _BENCH_FILE.match(name.lower()):
        return Role.BENCHMARK
    return Role.PRODUCT


def _tests_named(folder: str) -> bool:
    """A folder named for tests among other words: ``integration_test``,
    ``tests-integration``, ``android-test``, ``okhttp-testing-support`` (a lone ``testing``
    is a product's package as often: ``numpy/testing``, ``click/testing.py``)."""
    words = [w for w in re.split(r"[-_]", folder) if w]
    return len(words) > 1 and not _TEST_WORDS.isdisjoint(words)


def _shown(folder: str, below: bool, name: str) -> bool:
    """Whether a file under ``folder`` (``below``: in a folder below it, not right in
    it) is code a documentation tree shows rather than builds (its pages aside)."""
    if _PAGES.match(name):
        return False
    return folder in _SNIPPET_DIRS or (folder in _DOC_TREES and below)


def _vendored(folders: list[str], name: str) -> bool:
    """Another project's code shipped in this one, or a generated site's scripts."""
    if _BUNDLED.match(name) or any(folder in _VENDOR_DIRS for folder in folders):
        return True
    return name.endswith(".js") and any(folder in _DOC_DIRS for folder in folders)
