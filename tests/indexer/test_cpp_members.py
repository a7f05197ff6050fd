"""C++ members defined outside their class, and the attribute macros around them."""

from __future__ import annotations

from pathlib import Path

from symfuse.indexer.extract.tags import extract
from symfuse.indexer.index import Index
from symfuse.indexer.model import RefKind
from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import GetRequest
from symfuse.ranking.search.details import SymbolDetail
from tests.support.index import index_of_tree, links

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


def dead_names(index: Index) -> set[str]:
    """The names of the definitions dead code reports in ``index``, at any confidence."""
    return {d.symbol.name for d in dead_code(index, DeadCodeScope(min_confidence=0.0)).items}


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
    dead = dead_names(index_of_tree(tmp_path, TREE))
    assert not dead & {"UI_API", "UI_INLINE", "UI_ENABLE_IF", "is_handle"}


LOGGER = {
    "include/log/backtracer.h": """\
#pragma once
namespace log {
class backtracer {
 public:
  void enable(int size);
  void push_back(int message);
};
}  // namespace log
""",
    "include/log/circular.h": """\
#pragma once
namespace log {
template <typename T> class circular_q {
 public:
  void push_back(T item) {}
};
}  // namespace log
""",
    "include/log/logger.h": """\
#pragma once
#include <memory>
#include <vector>
#include "backtracer.h"
namespace log {
class sink { public: void flush() {} };
class logger {
 public:
  void enable_backtrace(int n);
  void log_it(int message);
  template <typename Handler> void visit(Handler &handler) { handler.on_message(1); }
 private:
  void flush_();
  backtracer tracer_;
  std::shared_ptr<sink> sink_;
  std::vector<int> pending_;
};
struct printer { void on_message(int m) {} };
}  // namespace log
""",
    "src/backtracer.cpp": """\
#include "log/backtracer.h"
namespace log {
void backtracer::enable(int size) { (void)size; }
void backtracer::push_back(int message) { (void)message; }
}  // namespace log
""",
    "src/logger.cpp": """\
#include "log/logger.h"
namespace log {
void logger::enable_backtrace(int n) { tracer_.enable(n); }
void logger::log_it(int message) {
  tracer_.push_back(message);
  pending_.push_back(message);
  sink_->flush();
  flush_();
}
void logger::flush_() {}
}  // namespace log
""",
}


def test_members_defined_outside_their_class_see_its_fields_types(tmp_path: Path) -> None:
    """In ``void logger::log_it()`` (the class declared in a header), ``tracer_`` is the
    class's field of type ``backtracer``: ``tracer_.push_back(m)`` is backtracer's
    (defined out of line), not circular_q's namesake; a standard container's
    ``push_back`` is none of ours; a smart pointer reaches what it points to; a bare
    ``flush_()`` is the class's own member; a template parameter's type (``Handler``)
    says nothing, so its member stays a guess by name."""
    index = index_of_tree(tmp_path, LOGGER)
    source = "src/logger.cpp::log.logger.log_it#method"
    found = links(index, "src/logger.cpp", source)
    assert found["src/backtracer.cpp::log.backtracer.push_back#method"] >= 0.8
    assert not any("circular" in target for target in found), found
    assert found["include/log/logger.h::log.sink.flush#method"] >= 0.8
    assert any(target.endswith("log.logger.flush_#method") for target in found), found
    enable = links(index, "src/logger.cpp", "src/logger.cpp::log.logger.enable_backtrace#method")
    assert enable["src/backtracer.cpp::log.backtracer.enable#method"] >= 0.8
    visit = links(index, "include/log/logger.h", "include/log/logger.h::log.logger.visit#method")
    assert "include/log/logger.h::log.printer.on_message#method" in visit


def test_a_member_used_through_its_declaration_is_not_dead(tmp_path: Path) -> None:
    """A call inside the class reaches the header's declaration; the body defined out of
    line is the same member, and neither is dead."""
    files = {
        "include/q.h": "namespace q {\nclass parse_context {\n public:\n"
        "  void do_check(int id);\n  void next(int id) { do_check(id); }\n};\n}\n",
        "src/q.cpp": '#include "q.h"\nnamespace q {\nvoid parse_context::do_check(int id) {}\n}\n'
        "int main() { q::parse_context c; c.next(1); }\n",
    }
    assert "do_check" not in dead_names(index_of_tree(tmp_path, files))


EXCEPTIONS = """\
namespace log {
class pool {
  void stop();
  void wait();
};
void pool::stop() {
  LOG_TRY {
    for (int i = 0; i < 3; i++) {
      wait();
    }
  }
  LOG_CATCH_STD
}
template <typename T> bool is_large(T v) {
  if FMT_CONSTEXPR20 (sizeof(T) > 4) {
    return true;
  }
  return false;
}
void report(int code) { (void)code; }
}  // namespace log
"""


def test_exception_and_constexpr_macros_leave_the_code_readable() -> None:
    """``LOG_TRY { ... } LOG_CATCH_STD`` (try and catch behind macros) and ``if
    FMT_CONSTEXPR20 (...)`` (an ``if constexpr``) parse without errors: the loop's
    ``for`` is no call, the definitions after them keep their namespace, and ``wait()``
    is a call in ``pool::stop``."""
    found = extract("src/pool.cpp", ".", "cpp", EXCEPTIONS.encode())
    assert found.problems == []
    assert {s.fqn for s in found.symbols} >= {"log.pool.stop", "log.is_large", "log.report"}
    calls = {(r.name, r.enclosing) for r in found.references if r.kind is RefKind.CALL}
    assert any(
        name == "wait" and (at or "").endswith("log.pool.stop#method~2") for name, at in calls
    )
    assert not any(name == "for" for name, _ in calls)


def test_template_overloads_of_one_arity_are_each_a_use(tmp_path: Path) -> None:
    """Two function templates of one name taking no argument (``encode<T>()`` and
    ``encode<T, U, Rest...>()``): the types choose, which the index does not know, so
    a call is a use of each, as with a class's overloads."""
    files = {
        "include/enc.h": "namespace enc {\n"
        "template <typename T> constexpr int encode() { return 0; }\n"
        "template <typename T, typename U, typename... R> constexpr int encode() {\n"
        "  return 1;\n}\n"
        "inline int run() { return encode<int>(); }\n}\n",
        "src/main.cpp": '#include "enc.h"\nint main() { return enc::run(); }\n',
    }
    assert "encode" not in dead_names(index_of_tree(tmp_path, files))


def test_a_template_s_specializations_are_the_template(tmp_path: Path) -> None:
    """``is_char<T>`` and its specialization ``is_char<char>``: a use of the name is a
    use of each (the type argument chooses)."""
    files = {
        "include/traits.h": "namespace tr {\n"
        "template <typename T> struct is_char { static constexpr bool value = false; };\n"
        "template <> struct is_char<char> { static constexpr bool value = true; };\n"
        "template <typename T> bool check() { return is_char<T>::value; }\n}\n",
        "src/main.cpp": '#include "traits.h"\nint main() { return tr::check<int>(); }\n',
    }
    assert "is_char" not in dead_names(index_of_tree(tmp_path, files))


def test_operators_outside_a_class_are_run_by_their_syntax(tmp_path: Path) -> None:
    """``bool operator==(const point&, const point&)`` in a namespace is run by ``a ==
    b``, which names no function: not dead (a member operator never was)."""
    files = {
        "include/geo.h": "namespace geo {\nstruct point { int x; };\n"
        "inline bool operator==(const point& a, const point& b) { return a.x == b.x; }\n}\n",
        "src/main.cpp": '#include "geo.h"\nint main() { geo::point a{1}, b{1}; return a == b; }\n',
    }
    assert "operator==" not in dead_names(index_of_tree(tmp_path, files))


ANNOTATED = """\
namespace port {
class LOCKABLE Mutex {
 public:
  void Lock() EXCLUSIVE_LOCK_FUNCTION();
  void Unlock() UNLOCK_FUNCTION();
  void AssertHeld() ASSERT_EXCLUSIVE_LOCK() {}
};
class SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mu) EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() UNLOCK_FUNCTION() { mu_->Unlock(); }
 private:
  Mutex* const mu_;
  int waiting_ GUARDED_BY(mu_);
};
}  // namespace port
"""


def test_thread_safety_annotations_leave_the_code_readable() -> None:
    """Clang's thread-safety annotations (leveldb's, abseil's ``ABSL_GUARDED_BY``) after a
    parameter list, after a field and before a class name parse without errors, and
    name no member (``MutexLock.EXCLUSIVE_LOCK_FUNCTION`` was one)."""
    found = extract("port/mutex.h", ".", "cpp", ANNOTATED.encode())
    assert found.problems == []
    names = {s.fqn for s in found.symbols}
    assert {"port.Mutex", "port.MutexLock", "port.MutexLock.waiting_"} <= names
    assert not any("LOCK_FUNCTION" in name for name in names), names


def test_a_declaration_over_several_lines_and_its_body_are_one_member(tmp_path: Path) -> None:
    """A header's declaration written over two lines (``Status MakeRoom(bool force)`` then
    an annotation) and its body in a source file: a call of either is a use of both."""
    files = {
        "db/impl.h": "namespace db {\nclass Impl {\n public:\n  int Write();\n"
        " private:\n  int MakeRoom(bool force)\n      EXCLUSIVE_LOCKS_REQUIRED(mutex_);\n};\n}\n",
        "db/impl.cc": '#include "impl.h"\nnamespace db {\n'
        "int Impl::Write() { return MakeRoom(false); }\n"
        "int Impl::MakeRoom(bool force) { return force ? 1 : 0; }\n}\n"
        "int main() { db::Impl i; return i.Write(); }\n",
    }
    assert "MakeRoom" not in dead_names(index_of_tree(tmp_path, files))


def test_a_member_function_passed_by_address_is_used(tmp_path: Path) -> None:
    """``env->Schedule(&DBImpl::BGWork, this)``: the address of a static member function
    passed as a callback is a use of it (its only one in leveldb); the qualified name
    of an out-of-line definition is not a use of itself."""
    files = {
        "db/impl.h": "namespace db {\nclass DBImpl {\n public:\n  void Start();\n"
        " private:\n  static void BGWork(void* db);\n};\n}\n",
        "db/impl.cc": '#include "impl.h"\nnamespace db {\n'
        "void Schedule(void (*f)(void*), void* a);\n"
        "void DBImpl::Start() { Schedule(&DBImpl::BGWork, this); }\n"
        "void DBImpl::BGWork(void* db) { (void)db; }\n}\n"
        "int main() { db::DBImpl d; d.Start(); }\n",
    }
    index = index_of_tree(tmp_path, files)
    assert "BGWork" not in dead_names(index)
    reads = [r.name for r in index.files["db/impl.cc"].references() if r.kind is RefKind.REFERENCE]
    assert "Start" not in reads, reads


MACRO_LINES = """\
// Enable minimal optimizations.
LIB_PRAGMA_GCC(push_options)
LIB_PRAGMA_MSVC(warning(disable : 4702))
namespace lib {
LIB_BEGIN_EXPORT

/** A view of characters. */
template <typename Char> class string_view {
 public:
  string_view(const Char* s) : data_(s) {
    if (std::is_same<Char, char>::value && !detail::is_constant_evaluated()) {
      return;
    }
  }

 private:
  const Char* data_;
  LIB_UNCHECKED_ITERATOR(string_view);
};
LIB_END_EXPORT
}  // namespace lib
TEST(Suite, Views)
{
  lib::string_view<char> v("x");
}
"""


def test_macros_alone_on_their_line_before_a_comment_leave_the_class_readable() -> None:
    """``LIB_BEGIN_EXPORT`` (fmt's ``FMT_BEGIN_EXPORT``) before a doc comment, and
    ``LIB_PRAGMA_GCC(push_options)`` between declarations: blanked, the class after them
    is a class with its constructor (it was a stray function, and a misread scope made
    one definition's qualified name the class's whole text); a test macro whose block
    follows on the next line is kept; a macro called in the class body is a call, not a
    constructor (a constructor has its class's name)."""
    found = extract("include/lib/view.h", ".", "cpp", MACRO_LINES.encode())
    names = {s.fqn: s.kind.value for s in found.symbols}
    assert names["lib.string_view"] == "class", names
    assert names["lib.string_view.string_view"] == "constructor", names
    assert names["TEST"] == "function", names  # as before: its block is read
    assert {"LIB_PRAGMA_GCC", "LIB_BEGIN_EXPORT"} <= {r.name for r in found.references}
    assert "lib.string_view.LIB_UNCHECKED_ITERATOR" not in names
    calls = {r.name for r in found.references if r.kind is RefKind.CALL}
    assert "LIB_UNCHECKED_ITERATOR" in calls


def test_a_scope_that_is_no_name_never_qualifies_a_definition() -> None:
    """A macro the pre-pass cannot know (lower case) still breaks the class after it:
    the definition the grammar then finds is qualified by the names written before it,
    never by the broken node's text (a line break in a qualified name made every load
    of the ranking file fail and rebuild)."""
    source = MACRO_LINES.replace("LIB_BEGIN_EXPORT", "lib_begin_export").encode()
    found = extract("include/lib/view.h", ".", "cpp", source)
    assert found.symbols
    assert not [s.fqn for s in found.symbols if "\n" in s.fqn + s.name]


def test_empty_braced_defaults_and_constexpr_macros_are_no_syntax_errors() -> None:
    """spdlog's sinks take ``const file_event_handlers &event_handlers = {}``, which the
    grammar cannot read in a parameter list, and mark functions ``SPDLOG_CONSTEXPR_FUNC``:
    each file was listed by ``problems`` as indexed in part, and the macro was a type."""
    source = b"""namespace sinks {
class file_sink {
 public:
  explicit file_sink(const char *name, const handlers &event_handlers = {});
  void open(const char *name, bool truncate = false, const handlers &h = {}) {}
};
LIB_CONSTEXPR_FUNC int digits(int n) { return n; }
static const char *short_names[] LIB_SHORT_NAMES;
}  // namespace sinks
const char *error::what() const noexcept { return "e"; }
"""
    found = extract("include/sinks/file_sink.h", ".", "cpp", source)
    assert found.problems == []
    assert {"sinks.file_sink.file_sink", "sinks.digits", "sinks.short_names", "error.what"} <= {
        s.fqn for s in found.symbols
    }
    kinds = {r.name: r.kind for r in found.references}
    assert kinds["LIB_CONSTEXPR_FUNC"] is RefKind.REFERENCE


def test_catch2_test_cases_are_functions_and_their_locals_stay_local() -> None:
    """``TEST_CASE("name", "[tag]") {`` and ``SECTION("step") {``: the test's locals were
    the file's variables (``logger``, ``test_sink`` in every spdlog test file) and each
    file a syntax-error problem; now each test case is a function, a section a block, and
    what they call is still called."""
    source = b"""#include "includes.h"
TEST_CASE("logger clone", "[clone]") {
    auto test_sink = std::make_shared<test_sink_mt>();
    auto logger = std::make_shared<spdlog::logger>("orig", test_sink);
    SECTION("Tear down") { spdlog::drop_all(); }
    SECTION ("nested \\"quoted\\" name") {
        WHEN("cloned") { logger->clone("clone"); }
    }
}
TEST_CASE_METHOD(Fixture, "with a fixture") { helper(); }
"""
    found = extract("tests/test_clone.cpp", ".", "cpp", source)
    assert found.problems == []
    assert [(s.kind.value, s.name) for s in found.symbols] == [
        ("function", "TEST_CASE"),
        ("function", "TEST_CASE_METHOD"),
    ]
    calls = {r.name for r in found.references if r.kind is RefKind.CALL}
    assert {"drop_all", "clone", "helper"} <= calls
    assert "Fixture" in {r.name for r in found.references}


def test_access_macros_macro_calls_before_a_brace_and_one_word_branches() -> None:
    """nlohmann's ``JSON_PRIVATE_UNLESS_TESTED:`` and Qt's ``public Q_SLOTS:`` (an access
    specifier as a macro), ``NLOHMANN_DEFINE_TYPE_INTRUSIVE(person, name)`` as a class's
    last line, and ``#if defined(X)`` / ``constexpr`` / ``#endif`` between a template's
    head and its declaration: each a syntax error, the class's members its file's."""
    source = b"""namespace ns {
class person {
  JSON_PRIVATE_UNLESS_TESTED:
    int age = 0;
  public Q_SLOTS:
    void rename();
  public:
    template <typename T>
#if defined(JSON_HAS_CPP_14)
    constexpr
#endif
    T get() const { return T(); }
    NLOHMANN_DEFINE_TYPE_INTRUSIVE(person, age)
};
}  // namespace ns
"""
    found = extract("include/ns/person.hpp", ".", "cpp", source)
    assert found.problems == []
    assert {"ns.person.age", "ns.person.rename", "ns.person.get"} <= {s.fqn for s in found.symbols}
    assert "NLOHMANN_DEFINE_TYPE_INTRUSIVE" in {r.name for r in found.references}


def test_keyword_casts_anonymous_enum_bases_and_parameter_macros() -> None:
    """fmt's ``base.h`` (``data_ = unsigned(size) << shift;``, ``enum : unsigned {``)
    and hiredis's GLib example (``connect_cb(const redisAsyncContext *ac G_GNUC_UNUSED,
    int status)``): syntax errors that cost the structs around them members;
    ``short()`` and ``sizeof(struct PAGE_UNUSED)`` stay as written."""
    source = b"""namespace detail {
struct specs {
  enum : unsigned { width_shift = 3 };
  unsigned data_ = 0;
  void set_width(int w) { data_ = (data_ & 7u) | (unsigned(w) << width_shift); }
  long get() const { return long(data_) + short() + sizeof(struct PAGE_UNUSED); }
};
template <typename Context> class value {
 public:
  constexpr value(bool x G_GNUC_UNUSED, int y) : bool_value(y) {}
  bool bool_value;
};
}  // namespace detail
"""
    found = extract("include/fmt/base.h", ".", "cpp", source)
    assert found.problems == []
    fqns = {s.fqn for s in found.symbols}
    assert {"detail.specs.set_width", "detail.specs.get", "detail.value.value"} <= fqns, fqns


def test_a_constrained_template_and_a_conditional_inside_its_arguments_keep_the_class() -> None:
    """nlohmann/json's ``basic_json``: a conversion operator constrained by
    ``std::enable_if < detail::conjunction < ... > >`` with qualified templates and an
    ``#if`` among the arguments, and ``JSON_EXPLICIT`` before ``operator``. The grammar
    ended the class there (line 1,900 of 5,258) and its later methods were indexed as
    free functions. An ``#if`` between an enum's members is read as the grammar reads it."""
    source = b"""class basic_json
{
  public:
    template < typename ValueType, typename std::enable_if <
                   detail::conjunction <
                       detail::negation<std::is_pointer<ValueType>>,
                       detail::negation<std::is_same<ValueType, std::nullptr_t>>,
#if defined(JSON_HAS_CPP_17) && (defined(__GNUC__) || (defined(_MSC_VER)))
                       detail::negation<std::is_same<ValueType, std::string_view>>,
#else
                       detail::negation<std::is_same<ValueType, std::string>>,
#endif
                       detail::is_detected_lazy<detail::get_template_function, ValueType>
                   >::value, int >::type = 0 >
    JSON_EXPLICIT operator ValueType() const
    {
        return get<ValueType>();
    }

    void push_back(basic_json&& val)
    {
        m_data.push(val);
    }
};

enum class value_t {
    null,
#if defined(JSON_HAS_BINARY)
    binary,
#endif
    discarded
};
"""
    found = extract("include/nlohmann/json.hpp", ".", "cpp", source)
    assert found.problems == []
    fqns = {s.fqn for s in found.symbols}
    assert {"basic_json.push_back", "value_t.binary", "value_t.discarded"} <= fqns, fqns
    assert "push_back" not in fqns
