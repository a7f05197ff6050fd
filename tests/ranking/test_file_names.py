"""A name that is a code file's stem finds the file (ranking.search.file_names): right
after the exact definitions of the name, never before the first exact match, and only
when at most two files have that stem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.query.responses import SearchResponse

TEST_MODULE = '''"""Tests of the runner."""
from pkg import testing


def test_testing_runner_invokes():
    """testing: the runner invokes a command (testing, testing)."""
    assert testing.CliRunner().invoke("testing")


def test_testing_isolation():
    """testing in isolation: testing the files, testing the env."""
    assert testing.CliRunner().isolated("testing")
'''

QUICKLIST_H = """#ifndef QUICKLIST_H
#define QUICKLIST_H

typedef struct quicklistNode {
    struct quicklistNode *prev;
    struct quicklistNode *next;
} quicklistNode;

typedef struct quicklist {
    quicklistNode *head;
    unsigned long count;
} quicklist;

typedef struct quicklistIter {
    quicklist *quicklist;
    quicklistNode *current;
} quicklistIter;

quicklist *quicklistCreate(void);
void quicklistRelease(quicklist *ql);

#endif
"""

QUICKLIST_C = """#include "quicklist.h"

quicklist *quicklistCreate(void) {
    quicklist *ql = malloc(sizeof(*ql));
    ql->head = NULL;
    return ql;
}

void quicklistRelease(quicklist *ql) {
    free(ql);
}

void quicklistRotate(quicklist *ql) {
    ql->count = ql->count;
}
"""


def workspace(tmp_path: Path, files: dict[str, str]) -> Index:
    for rel, text in files.items():
        (tmp_path / "ws" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "ws" / rel).write_text(text)
    config = IndexConfig(roots=(tmp_path / "ws",), index_dir=tmp_path / "index", progress=False)
    return update_index(config)[0]


def run(index: Index, **fields: Any) -> SearchResponse:
    return search(index, SearchRequest.from_mapping(fields))


def test_a_module_asked_by_its_name_is_found_before_the_tests_that_say_it(
    tmp_path: Path,
) -> None:
    index = workspace(
        tmp_path,
        {
            "pkg/testing.py": (
                '"""Run commands in isolation."""\n\n\n'
                "class CliRunner:\n    def invoke(self, command):\n        return command\n"
            ),
            "pkg/core.py": "def main():\n    return 0\n",
            "tests/test_testing.py": TEST_MODULE,
            "tests/test_more.py": TEST_MODULE.replace("runner", "other"),
            # side code of the same stem does not count against the two files a name may mean
            "tests/testing.py": "def helper():\n    return 1\n",
            "examples/testing.py": "def demo():\n    return 2\n",
        },
    )
    answer = run(index, query="testing", fusion_debug=True)
    first = answer.items[0].symbol
    assert (first.file, first.kind) == ("pkg/testing.py", Kind.FILE)
    assert [a.reason for a in answer.items[0].adjustments] == ["its file's name is the query"]
    assert answer.total >= len(answer.items)
    # not for a kind filter (asked for functions), nor in another shape ("testing runner")
    assert all(
        i.symbol.kind is not Kind.FILE for i in run(index, query="testing", kind=["class"]).items
    )
    assert all(i.symbol.kind is not Kind.FILE for i in run(index, query="testing runner").items)


def test_a_c_module_joins_its_header_right_after_the_exact_definitions(tmp_path: Path) -> None:
    holders = {  # fields named after the module, in other files: exact matches too
        f"{n}.h": f"typedef struct {n} {{\n    quicklist *quicklist;\n}} {n};\n"
        for n in ("client", "server", "db")
    }
    index = workspace(tmp_path, {"quicklist.h": QUICKLIST_H, "quicklist.c": QUICKLIST_C, **holders})
    items = [
        (i.symbol.file, i.symbol.name, i.symbol.kind) for i in run(index, query="quicklist").items
    ]
    assert items[:3] == [  # the struct and its typedef, then the file, then the fields
        ("quicklist.h", "quicklist", Kind.STRUCT),
        ("quicklist.h", "quicklist", Kind.TYPE),
        ("quicklist.c", "quicklist.c", Kind.FILE),
    ]
    assert all(kind is Kind.FIELD for _, name, kind in items[3:6] if name == "quicklist")


def test_a_stem_of_many_files_and_a_first_exact_match_keep_their_places(tmp_path: Path) -> None:
    index = workspace(
        tmp_path,
        {
            **{f"pkg/{p}/base.py": f"def handler_{p}():\n    return 1\n" for p in "abc"},
            **{f"web/{n}.ts": f"export class {n} {{\n  email: string;\n}}\n" for n in "ABC"},
            "shop/services/email.py": "def send(to):\n    return to\n",
        },
    )
    assert all(i.symbol.kind is not Kind.FILE for i in run(index, query="base").items)
    items = [(i.symbol.file, i.symbol.kind) for i in run(index, query="email").items]
    assert items[0] == ("web/A.ts", Kind.FIELD)  # the first exact match: a field of the name
    assert items[1] == ("shop/services/email.py", Kind.FILE)
    assert items[2:4] == [("web/B.ts", Kind.FIELD), ("web/C.ts", Kind.FIELD)]


def test_a_folders_module_is_asked_by_the_folders_name(tmp_path: Path) -> None:
    # Rust's `value/mod.rs` and Python's `_transports/__init__.py` are their folders' modules
    index = workspace(
        tmp_path,
        {
            "src/lib.rs": "pub mod value;\npub fn to_value() -> u8 { 0 }\n",
            "src/value/mod.rs": "pub enum Kind { Null }\npub fn kind() -> Kind { Kind::Null }\n",
            "src/value/de.rs": "pub fn value_of() -> u8 { 1 }\n",
            "src/number.rs": "pub fn value() -> u8 { 2 }\npub fn value_ref() -> u8 { 3 }\n",
            "pkg/_transports/__init__.py": "from .base import Transport\n",
            "pkg/_transports/base.py": "class Transport:\n    pass\n",
            "pkg/client.py": "def _transports():\n    return []\n",
        },
    )
    rust = [(i.symbol.file, i.symbol.kind) for i in run(index, query="value").items]
    assert ("src/value/mod.rs", Kind.FILE) in rust[:3]
    python = [(i.symbol.file, i.symbol.kind) for i in run(index, query="_transports").items]
    assert python[0][0] == "pkg/client.py"  # the exact definition first
    assert python[1] == ("pkg/_transports/__init__.py", Kind.FILE)


def test_a_module_declared_without_a_body_gives_way_to_its_file(tmp_path: Path) -> None:
    # `pub mod mpsc;` only says where the module is: its file defines it (tokio's sync/mpsc/)
    index = workspace(
        tmp_path,
        {
            "src/lib.rs": "pub mod sync;\n",
            "src/sync/mod.rs": "pub mod mpsc;\npub mod oneshot;\n",
            "src/sync/mpsc/mod.rs": "pub mod chan;\npub fn channel() -> u8 { 0 }\n",
            "src/sync/mpsc/chan.rs": "pub struct Chan { pub len: u8 }\n",
            "src/sync/oneshot.rs": "pub fn channel() -> u8 { 1 }\n",
            "util/src/lib.rs": "pub mod sync {\n    pub fn oneshot() -> u8 { 2 }\n}\n",
        },
    )
    items = [(i.symbol.file, i.symbol.kind) for i in run(index, query="mpsc").items]
    assert items[:2] == [("src/sync/mpsc/mod.rs", Kind.FILE), ("src/sync/mod.rs", Kind.MODULE)]
    items = [(i.symbol.file, i.symbol.kind) for i in run(index, query="oneshot").items]
    assert items[0] == ("util/src/lib.rs", Kind.FUNCTION)  # a definition with a body stays first
    assert "src/sync/oneshot.rs" in [file for file, _ in items[1:3]]
    # an inline module with a body is the module itself: it keeps its place
    items = [(i.symbol.file, i.symbol.kind) for i in run(index, query="sync").items]
    assert items[0] == ("util/src/lib.rs", Kind.MODULE)


def test_a_module_file_comes_before_the_other_functions_of_its_name(tmp_path: Path) -> None:
    # phoenix's `socket`: Phoenix.Socket's file, not after every function called socket
    index = workspace(
        tmp_path,
        {
            "lib/app/socket.ex": "defmodule App.Socket do\n  def connect(p), do: p\nend\n",
            **{
                f"lib/app/{n}.ex": f"defmodule App.{n.title()} do\n  def socket(s), do: s\nend\n"
                for n in ("channel", "endpoint", "server", "token")
            },
        },
    )
    items = [(i.symbol.file, i.symbol.kind) for i in run(index, query="socket").items]
    assert items[0][1] is Kind.FUNCTION  # the first exact match keeps its place
    assert items[1] == ("lib/app/socket.ex", Kind.FILE)
    assert [kind for _, kind in items[2:5]] == [Kind.FUNCTION] * 3
