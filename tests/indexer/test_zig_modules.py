"""Zig's modules as http.zig writes them: ``const posix = @import("posix.zig");`` binds
a file to a name, and ``posix.listen(fd)`` is that file's ``listen``; a module another
module imports is reached through it (``windows.ws2_32.SD_BOTH``); names read through
a dot are uses (``request.Request``, a handler passed as ``Handler.hello``); the
standard library's names are none of the workspace's (``std.mem`` is not a file's
``const mem = std.mem;``), and a field read on a value links no guess."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from tests.support.index import index_of_tree, named_links

SERVER = """const std = @import("std");
const posix = @import("posix.zig");
const windows = @import("windows.zig");
pub const request = @import("request.zig");
pub const Request = request.Request;

const Handler = struct {
    fn hello(req: *Request) void {
        _ = req;
    }
};

pub fn listen(router: anytype, buf: []const u8) !void {
    const fd = try posix.socket(2, 1, 0);
    try posix.listen(fd, 128);
    const how = windows.ws2_32.SD_BOTH;
    _ = how;
    _ = buf.len;
    router.get("/", Handler.hello);
    std.debug.assert(std.mem.eql(u8, "a", "a"));
}
"""
POSIX = """pub fn socket(domain: u32, kind: u32, protocol: u32) !i32 {
    return 3;
}

pub fn listen(fd: i32, backlog: u31) !void {}
"""
WINDOWS = 'pub const ws2_32 = @import("ws2_32.zig");\n'
WS2_32 = "pub const SD_BOTH = 2;\n"
REQUEST = """pub const Request = struct {
    len: usize,
};
"""
# a module with `const mem = std.mem;` that it never uses
UNUSED = """const std = @import("std");
const mem = std.mem;

pub const Slice = struct {
    len: usize,
};
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    files = {
        "src/server.zig": SERVER,
        "src/posix.zig": POSIX,
        "src/windows.zig": WINDOWS,
        "src/ws2_32.zig": WS2_32,
        "src/request.zig": REQUEST,
        "src/unused.zig": UNUSED,
    }
    return index_of_tree(tmp_path_factory.mktemp("zig"), files)


def test_a_module_s_functions_through_its_name(index: Index) -> None:
    found = named_links(index, "src/server.zig", "listen")
    assert found["socket"] == 1.0
    assert found["listen"] == 1.0  # posix.zig's, not this file's own `listen`
    assert found["SD_BOTH"] == 1.0  # windows.zig imports ws2_32.zig as `ws2_32`
    assert found["Handler.hello"] == 1.0  # a function passed by its name


def test_a_re_export_reads_the_module(index: Index) -> None:
    found = named_links(index, "src/server.zig", "Request")
    assert found.get("request") == 1.0  # the import's name is used
    assert "Request" in found  # request.zig's struct


def test_the_standard_library_and_value_fields_link_nothing(index: Index) -> None:
    found = named_links(index, "src/server.zig", "listen")
    assert "mem" not in found  # std.mem, not unused.zig's `const mem = std.mem;`
    assert "Slice.len" not in found  # `buf.len`: no guess among fields named `len`
    assert "Request.len" not in found


def test_destructuring_declarations_parse() -> None:
    """Zig 0.12's ``const lhs, const rhs = tree.nodeData(node).node_and_node;`` (32 of
    zls's 103 files) was a syntax error the bundled grammar flagged in every such file;
    the call on its right is read, and a struct's fields on one line are left alone."""
    from symfuse.indexer.extract.tags import extract

    source = b"""const Tree = struct {
    a: u8, b: u8 = 0,
    fn split(tree: Tree, node: u32) u8 {
        const lhs, const rhs = tree.nodeData(node);
        _, const loc = identifierAt(tree, node) orelse return 0;
        const start: usize, var end: usize = .{ 0, 1 };
        const decl, _ = resolveDecl(tree) orelse return 0;
        return lhs + rhs + loc + start + end;
    }
};
"""
    found = extract("src/tree.zig", ".", "zig", source)
    assert found.problems == []
    calls = {r.name for r in found.references if r.kind.value == "call"}
    assert {"nodeData", "identifierAt", "resolveDecl"} <= calls
    assert {"Tree.a", "Tree.b", "Tree.split"} <= {s.fqn for s in found.symbols}
