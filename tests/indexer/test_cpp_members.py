"""C++ members defined outside their class, and the attribute macros around them."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import GetRequest
from symfuse.ranking.search.details import SymbolDetail
from tests.support.index import index_of_tree

TREE = {
    "include/ui/config.h": """\
#pragma once
#if defined(_WIN32)
#define UI_API __declspec(dllexport)
#else
#define UI_API __attribute__((visibility("default")))
#endif
#define UI_INLINE inline
#define UI_ENABLE_IF(...) typename std::enable_if<(__VA_ARGS__), int>::type = 0
""",
    "include/ui/widget.h": """\
#pragma once
#include "config.h"
namespace ui {
template <typename T> struct is_handle { static constexpr bool value = false; };
class UI_API Widget {
 public:
  void enable(int level);
  template <typename T, UI_ENABLE_IF(is_handle<T>::value)> void bind(T handle);
};
}  // namespace ui
""",
    "src/widget.cpp": """\
#include "ui/widget.h"
namespace ui {
UI_INLINE void Widget::enable(int level) {
  (void)level;
}
}  // namespace ui
void ui::Widget::bind_all() {}
""",
}


def test_a_member_defined_outside_its_class_is_qualified_by_it(tmp_path: Path) -> None:
    """``void Widget::enable()`` inside ``namespace ui`` is ``ui.Widget.enable`` (it was
    ``ui.enable``), and ``get ui::Widget::enable`` shows that body, with the class's
    declaration listed beside it; a name qualified in full at the top level keeps
    every scope written (``ui::Widget::bind_all``)."""
    index = index_of_tree(tmp_path, TREE)
    fqns = {s.fqn for s in index.symbols if s.file == "src/widget.cpp"}
    assert {"ui.Widget.enable", "ui.Widget.bind_all"} <= fqns
    found = operations.get(index, GetRequest(target="ui::Widget::enable"))
    assert isinstance(found, SymbolDetail)
    assert found.symbol.file == "src/widget.cpp"
    assert [o.split("::")[0] for o in found.overloads] == ["include/ui/widget.h"]


def test_macros_the_prepass_blanks_are_still_used(tmp_path: Path) -> None:
    """``class UI_API Widget``, ``UI_INLINE void ...`` and a template parameter written
    as ``UI_ENABLE_IF(is_handle<T>::value)`` are blanked before the parse (the grammar
    cannot read them), yet they use the macros and what they pass: none of those is
    dead."""
    index = index_of_tree(tmp_path, TREE)
    found = dead_code(index, DeadCodeScope(min_confidence=0.0))
    dead = {d.symbol.name for d in found.items}
    assert not dead & {"UI_API", "UI_INLINE", "UI_ENABLE_IF", "is_handle"}
