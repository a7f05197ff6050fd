"""C headers as libraries write them: a `extern "C"` block opened and closed under
`#ifdef __cplusplus`, export macros between the return type and the name, `va_arg`
taking a type. Each was a syntax error that made the file a `problems` row."""

from __future__ import annotations

from symfuse.indexer.extract.prepass import PREPASS
from symfuse.indexer.extract.tags import extract
from symfuse.indexer.model import RefKind

HEADER = b"""#ifndef LIB_H
#define LIB_H
#include <stdarg.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct reply { int type; } reply;
int LIB_CAPI lib_vformat(char *buffer, const char *fmt, va_list ap);
reply *lib_command(const char *format, ...);

#if defined(__cplusplus)
}  /* extern "C" */
#endif
#endif
"""

SOURCE = b"""#include "lib.h"
int LIB_CAPI lib_vformat(char *buffer, const char *fmt, va_list ap) {
    char *text = va_arg(ap, char *);
    long long number = va_arg(ap, long long);
    return format_one(buffer, fmt, text, number);
}
"""


def test_extern_c_blocks_export_macros_and_va_arg_leave_no_syntax_error() -> None:
    header = extract("lib.h", ".", "c", HEADER)
    assert header.problems == []
    assert {"reply", "reply.type"} <= {s.fqn for s in header.symbols}
    source = extract("lib.c", ".", "c", SOURCE)
    assert source.problems == []
    assert [s.name for s in source.symbols] == ["lib_vformat"]
    calls = {r.name for r in source.references if r.kind is RefKind.CALL}
    assert "format_one" in calls
    assert "LIB_CAPI" in {r.name for r in source.references}  # blanked, still a use


def test_extern_c_braces_are_blanked_in_pairs_only() -> None:
    """A closing block with more after its brace (``}`` then a C++-only namespace before
    ``#endif``) still pairs with its opening; an opening with no closing block found is
    left as written (blanking one brace of a pair would make the error)."""
    source = b"""#ifdef __cplusplus
extern "C" {
#endif
int ring_push(char c);
#ifdef __cplusplus
}
namespace ring_cxx { inline int answer() { return 42; } }
#endif
"""
    found = extract("ring.h", ".", "cpp", source)
    assert found.problems == []
    assert "ring_cxx.answer" in {s.fqn for s in found.symbols}
    lone = b'#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n'
    assert PREPASS["c"](lone) == lone


def test_field_macros_closing_a_struct_and_extern_macros_leave_no_syntax_error() -> None:
    """libuv's uv.h: a struct's fields given by macros, the last one alone before ``};``
    (an enum's last enumerator is written the same way and stays), and ``UV_EXTERN``
    before each declaration. Left as written, the file parsed as one error and its
    structs were nested in one another (``uv_timer_s.uv_process_s...``)."""
    source = b"""#define UV_HANDLE_FIELDS void* data; int flags;
#define UV_STREAM_FIELDS size_t write_queue_size;

typedef enum {
  UV_UNKNOWN_HANDLE = 0,
  UV_HANDLE_TYPE_MAX
} uv_handle_type;

struct uv_stream_s {
  UV_HANDLE_FIELDS
  UV_STREAM_FIELDS
};

UV_EXTERN int uv_listen(uv_stream_t* stream, int backlog);

struct uv_loop_s {
  void* data;
  UV_LOOP_PRIVATE_FIELDS
};
"""
    found = extract("uv.h", ".", "c", source)
    assert found.problems == []
    fqns = {s.fqn for s in found.symbols}
    assert {"uv_stream_s", "uv_loop_s", "uv_handle_type.UV_HANDLE_TYPE_MAX"} <= fqns
    assert "UV_STREAM_FIELDS" in {r.name for r in found.references}  # blanked, still a use


def test_a_conditional_that_splits_a_statement_is_read_as_its_first_branch() -> None:
    """jq: ``#ifdef _WIN32`` / ``if (localtime_s(...))`` / ``#else`` / ``if
    (localtime_r(...))`` / ``#endif`` / ``bp = NULL;`` (two heads for one body), ``int
    umain(...) {`` / ``#else`` / ``int main(...) {`` / ``#endif``, a help text's string
    continued inside a conditional, and a brace-less ``extern "C"`` under ``#ifdef
    __cplusplus``: each made the rest of the file one error, its functions lost and its
    locals read as the file's variables. A conditional around whole statements stays."""
    source = b"""#ifdef __cplusplus
extern "C"
#endif
void *alloca (size_t);

static void usage(FILE *f) {
  fprintf(f,
      "  -n, --null-input   use null as the input;\\n"
#ifdef WIN32
      "  -b, --binary       open streams in binary mode;\\n"
#endif
      "  -V, --version      show the version;\\n");
}

char *convert(time_t sse, struct tm *tm) {
  char *bp = "";
#ifdef _WIN32
  if (localtime_s(tm, &sse))
#else
  if (localtime_r(&sse, tm) == NULL)
#endif
    bp = NULL;
#ifdef _WIN32
  free(bp);
#else
  release(bp);
#endif
  return bp;
}

#ifdef WIN32
int wmain(int argc, wchar_t* wargv[]) {
  return umain(argc, 0);
}

int umain(int argc, char* argv[]) {
#else /*}*/
int main(int argc, char* argv[]) {
#endif
  int options = 0;
  return options;
}

int after(void) { return 1; }
"""
    found = extract("src/main.c", ".", "c", source)
    assert found.problems == []
    functions = {s.fqn for s in found.symbols if s.kind.value == "function"}
    assert functions == {"usage", "convert", "wmain", "main", "after"}, functions
    assert "options" not in {s.fqn for s in found.symbols}  # a local, not the file's
    assert {"release", "free"} <= {r.name for r in found.references}  # both branches read


def test_a_conditional_after_directive_lines_is_read_whole() -> None:
    """jq's jv.c: ``#include "jv_thread.h"`` then ``#ifdef WIN32`` ... ``#else`` ...
    ``#endif``. A directive line (or a macro's continued line) ends no list's element,
    even when it ends with a string: both branches are read."""
    source = b"""/* keys: a < b when the key is older */
#include "jv_thread.h"
#define NAME \\
  "a name"
#ifdef WIN32
int win_only(void) { return 1; }
#else
int posix_only(void) { return 2; }
#endif
"""
    found = extract("src/jv.c", ".", "c", source)
    assert {"win_only", "posix_only"} <= {s.fqn for s in found.symbols}
