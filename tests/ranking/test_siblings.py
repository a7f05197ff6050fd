"""Namesakes (ranking/search/siblings.py): one definition written again in every file of a
folder (locales), or in parallel implementations across folders, takes two places of a
sentence's answer, not all of them; written again within one file (C++ overloads, a Rust
type's impls of several traits), one place; one trait's method implemented for several
types of one file, two places; two classes' methods of one name are two definitions and
keep their places."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.api import SearchRequest, search
from tests.support.index import index_of_tree

LOCALE = '''def error(issue):
    """The message of an issue: an invalid email address, a value that fails its regex."""
    if issue == "email":
        return "invalid email address"
    return "does not match the regex"
'''


def test_a_definition_repeated_across_a_folder_takes_two_places(tmp_path: Path) -> None:
    files = {f"app/locales/{code}.py": LOCALE for code in ("en", "de", "fr", "it", "es", "pt")}
    files["app/formats.py"] = (
        "import re\n\n"
        "EMAIL = re.compile(r'[^@]+@[^@]+')\n\n\n"
        "def email_regex():\n"
        '    """The regex an email address must match."""\n'
        "    return EMAIL\n"
    )
    files["app/mail.py"] = (
        "def send_email(address, body):\n"
        '    """Send an email to an address."""\n'
        "    return address, body\n\n\n"
        "def check_address(address):\n"
        '    """Whether an email address looks valid."""\n'
        "    return '@' in address\n"
    )
    index = index_of_tree(tmp_path, files)
    found = search(index, SearchRequest(query="where is the email address regex", limit=5))
    names = [(item.symbol.name, item.symbol.file) for item in found.items]
    locales = [file for name, file in names if name == "error"]
    assert len(locales) == 2, names  # the other four make way
    assert ("email_regex", "app/formats.py") in names
    assert {"send_email", "check_address"} <= {name for name, _ in names}


SCANNER = '''def scan_number_literal(text):
    """Scan a number literal from the input: digits, an optional fraction and exponent."""
    digits = text.rstrip("eE+-.")
    return digits, text[len(digits):]
'''


def test_parallel_implementations_in_other_folders_take_two_places(tmp_path: Path) -> None:
    # one scanner per input type, the way a text, a bytes and a lazy-bytes decoder sit
    # side by side, some a folder deeper than the others
    decoders = ("text.py", "bytes.py", "lazy/bytes.py", "stream/chunks.py")
    files = dict.fromkeys((f"json/decoding/{path}" for path in decoders), SCANNER)
    files["json/numbers.py"] = (
        "def scientific(text):\n"
        '    """Read a number literal as a coefficient and an exponent."""\n'
        "    return text\n"
    )
    index = index_of_tree(tmp_path, files)
    found = search(index, SearchRequest(query="scan a number literal with its exponent", limit=3))
    names = [(item.symbol.name, item.symbol.file) for item in found.items]
    assert sum(name == "scan_number_literal" for name, _ in names) == 2, names
    assert ("scientific", "json/numbers.py") in names  # the other two made way


def test_two_classes_methods_of_one_name_keep_their_places(tmp_path: Path) -> None:
    method = '''class {0}:
    def parse(self, text):
        """Parse the email address and check it against the regex."""
        return text
'''
    files = {f"app/forms/{name.lower()}.py": method.format(name) for name in "ABCDE"}
    index = index_of_tree(tmp_path, files)
    found = search(index, SearchRequest(query="parse the email address regex", limit=5))
    parsers = [item.symbol.fqn for item in found.items if item.symbol.name == "parse"]
    assert len(parsers) == 5, parsers  # five classes' methods, not one definition


WRITERS = """#include <cstdio>

// Writes a value to the output buffer, escaping quotes and control characters.
void write(FILE* out, int value) { std::fprintf(out, "%d", value); }

// Writes a value to the output buffer, escaping quotes and control characters.
void write(FILE* out, double value) { std::fprintf(out, "%g", value); }

// Writes a value to the output buffer, escaping quotes and control characters.
void write(FILE* out, const char* value) { std::fputs(value, out); }

// Writes a value to the output buffer, escaping quotes and control characters.
void write(FILE* out, char value) { std::fputc(value, out); }
"""


def test_overloads_in_one_file_take_one_place(tmp_path: Path) -> None:
    # C++ overloads: one definition written again for each argument type, in one file
    files = {
        "src/write.cc": WRITERS,
        "src/escape.cc": "// Escapes the quotes of a string.\nchar* escape(char* s);\n",
        "src/buffer.cc": "// Flushes the output buffer.\nvoid flush_output(FILE* f) {}\n",
        "src/read.cc": "// Reads a value from the input.\nint read_value(FILE* f) {}\n",
        "src/quote.cc": "// Whether a character needs quotes.\nbool needs_quotes(char c) {}\n",
        "src/size.cc": "// The size of the output so far.\nint output_size() {}\n",
        "src/clear.cc": "// Clears the buffer.\nvoid clear_buffer() {}\n",
    }
    index = index_of_tree(tmp_path, files)
    found = search(index, SearchRequest(query="write a value escaping quotes", limit=5))
    names = [item.symbol.name for item in found.items]
    assert names[0] == "write", names
    assert names.count("write") == 1, names  # the other three overloads made way
    assert {"needs_quotes", "read_value"} <= set(names)


def test_one_types_trait_methods_of_one_name_take_one_place(tmp_path: Path) -> None:
    # Rust: a type implementing several traits writes `end` once per impl block
    impls = "\n".join(
        f"impl {trait} for Compound {{\n"
        "    /// Finish the sequence: close the bracket and flush the writer.\n"
        "    fn end(self) -> Result<(), Error> {\n"
        "        self.close_bracket()\n"
        "    }\n"
        "}\n"
        for trait in ("SerializeSeq", "SerializeTuple", "SerializeMap", "SerializeStruct")
    )
    files = {
        "src/ser.rs": "pub struct Compound;\n\n" + impls,
        "src/writer.rs": "/// Close the last bracket of a list.\npub fn close_list() {}\n",
        "src/flush.rs": "/// Flush the writer.\npub fn flush_writer() {}\n",
        "src/read.rs": "/// Read the next sequence.\npub fn read_sequence() {}\n",
    }
    index = index_of_tree(tmp_path, files)
    found = search(index, SearchRequest(query="finish the sequence", limit=4))
    names = [item.symbol.name for item in found.items]
    assert names[0] == "end", names
    assert names.count("end") == 1, names  # the other impls' copies made way
    assert "read_sequence" in names


def test_one_traits_method_for_several_types_of_a_file_takes_two_places(tmp_path: Path) -> None:
    # Rust: one file implements a trait for several types, each impl block with its `end`
    impls = "\n".join(
        f"impl SerializeSeq for {name} {{\n"
        "    /// Finish the sequence: close the bracket and flush the writer.\n"
        "    fn end(self) -> Result<(), Error> {\n"
        "        self.close_bracket()\n"
        "    }\n"
        "}\n"
        for name in ("SeqWriter", "TupleWriter", "MapWriter", "StructWriter")
    )
    files = {
        "src/ser.rs": impls,
        "src/writer.rs": "/// Close the last bracket of a list.\npub fn close_list() {}\n",
        "src/flush.rs": "/// Flush the writer.\npub fn flush_writer() {}\n",
        "src/read.rs": "/// Read the next sequence.\npub fn read_sequence() {}\n",
    }
    index = index_of_tree(tmp_path, files)
    found = search(index, SearchRequest(query="close the bracket of the sequence", limit=5))
    names = [item.symbol.name for item in found.items]
    assert names[0] == "end", names
    assert names.count("end") == 2, names  # the other two types' copies made way
    assert "flush_writer" in names


def test_a_declaration_makes_way_for_its_body(tmp_path: Path) -> None:
    # C++: a class declares `flush` in its header, a source file defines it out of line
    files = {
        "include/sink.h": "namespace log {\nclass file_sink {\n public:\n"
        "  // Flushes the file: writes the buffered messages out.\n"
        "  void flush();\n};\n}\n",
        "src/sink.cpp": '#include "sink.h"\nnamespace log {\n'
        "// Flushes the file: writes the buffered messages out.\n"
        "void file_sink::flush() { std::fflush(file_); }\n}\n",
        "src/rotate.cpp": "// Rotates the file when it is full.\nvoid rotate_file() {}\n",
        "src/level.cpp": "// Whether a level is enabled.\nbool should_log(int level) {}\n",
        "src/format.cpp": "// Formats a date.\nvoid format_date() {}\n",
        "src/open.cpp": "// Opens a socket.\nvoid open_socket() {}\n",
        "src/pool.cpp": "// Starts the worker threads.\nvoid start_pool() {}\n",
        "src/color.cpp": "// Colours a terminal line.\nvoid colour_line() {}\n",
    }
    index = index_of_tree(tmp_path, files)
    found = search(index, SearchRequest(query="flush the buffered messages to the file", limit=10))
    shown = [(item.symbol.name, item.symbol.file) for item in found.items]
    # the declaration drops below the head's other items; the body keeps its place
    assert shown[-1] == ("flush", "include/sink.h"), shown
    assert ("flush", "src/sink.cpp") in shown[:3], shown


def test_kotlin_platform_copies_take_one_place(tmp_path: Path) -> None:
    """okio's ``ByteString`` is declared in commonMain (``expect``) and again in each
    platform's source set (``actual``), each with its ``base64()``: a sentence's answer
    showed four ``ByteString`` classes; one of each, and room for the rest."""
    actual = (
        "package okio\n\n/** An immutable sequence of bytes, encoded as base64 text. */\n"
        "actual open class ByteString internal actual constructor(\n"
        "  internal actual val data: ByteArray,\n) {\n"
        "  /** Encode the bytes as base64 text. */\n"
        "  actual open fun base64(): String = encodeBase64(data)\n}\n"
    )
    files = {
        f"okio/src/{platform}Main/kotlin/okio/ByteString.kt": actual
        for platform in ("common", "jvm", "apple", "nonApple")
    }
    files["okio/src/commonMain/kotlin/okio/Base64.kt"] = (
        "package okio\n\n/** Encode bytes as base64 text, with or without padding. */\n"
        'internal fun ByteArray.encodeBase64(padding: Boolean = true): String = ""\n'
    )
    files["okio/src/commonMain/kotlin/okio/Text.kt"] = (
        "package okio\n\n/** Encode text as UTF-8 bytes. */\n"
        "fun String.encodeUtf8(): ByteArray = ByteArray(0)\n\n"
        "/** Encode the bytes as hex text. */\n"
        'fun ByteArray.hex(): String = ""\n\n'
        "/** Decode base64 text to bytes. */\n"
        "fun String.decodeBase64(): ByteArray? = null\n"
    )
    index = index_of_tree(tmp_path, files)
    answer = search(index, SearchRequest(query="encode the bytes as base64 text", limit=10))
    shown = [(item.symbol.kind.value, item.symbol.fqn) for item in answer.items[:5]]
    assert shown.count(("class", "ByteString")) == 1, shown
    assert shown.count(("method", "ByteString.base64")) == 1, shown
    assert ("function", "encodeBase64") in shown, shown


def test_an_older_version_folders_copy_makes_way_for_the_newer(tmp_path: Path) -> None:
    """zod's `src/v3/` beside `src/v4/`: a sentence matching both answers from v4 first;
    a version folder with no newer sibling (`api/v2/` alone) keeps its place."""
    union_v3 = (
        "/** A tagged union: pick which option to parse from the tag field value. */\n"
        "export function pickUnionOptionByTag(tag: string, options: Map<string, unknown>) {\n"
        "  return options.get(tag);\n}\n"
    )
    union_v4 = (
        "/** The union option for a tag. */\n"
        "export function optionFor(tag: string, options: Map<string, unknown>) {\n"
        "  return options.get(tag);\n}\n"
    )
    files = {
        "packages/lib/src/v3/types.ts": union_v3,
        "packages/lib/src/v4/core/schemas.ts": union_v4,
        "api/v2/routes.ts": "export function parseTag(tag: string) {\n  return tag;\n}\n",
        "src/fields.ts": "export function fieldValue(field: string) {\n  return field;\n}\n",
        "src/choose.ts": "export function chooseOption(option: string) {\n  return option;\n}\n",
    }
    index = index_of_tree(tmp_path, files)
    query = "how does a tagged union pick which option to parse from the tag field value"
    found = search(index, SearchRequest(query=query, limit=10))
    files_found = [item.symbol.file for item in found.items]
    newer = files_found.index("packages/lib/src/v4/core/schemas.ts")
    assert newer < files_found.index("packages/lib/src/v3/types.ts"), files_found
    assert files_found.index("api/v2/routes.ts") < newer  # no newer copy beside it
    # a question that names the older version asks for it: the newer makes way
    asked = search(index, SearchRequest(query=f"{query} in v3", limit=10)).items
    files_asked = [item.symbol.file for item in asked]
    older = files_asked.index("packages/lib/src/v3/types.ts")
    assert older < files_asked.index("packages/lib/src/v4/core/schemas.ts"), files_asked
