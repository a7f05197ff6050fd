"""Whether a ``.h`` file is C, C++ or Objective-C, decided per file.

``.h`` is shared by the three languages, so discovery calls it C and the parser
decides, in this order:

1. ``compile_commands.json`` naming the header itself (``-x c++``, a ``clang++``
   command, ``-std=c++17``, ...);
2. the header's own text: ``@interface``/``@protocol``/``#import`` are Objective-C;
   ``namespace``, ``template <``, a class with access specifiers, ``::``, an
   extension-less standard include (``<vector>``) are C++. Comments, strings and
   ``#ifdef __cplusplus`` blocks are not read (a C header's ``extern "C"`` guard
   is no C++);
3. the project (:class:`HeaderHints`): the translation units of
   ``compile_commands.json`` that include the header's folder or sit in it, else
   the C-family sources nearest to it (its folder, then each folder above it up to
   the root), by majority; where there are none, the other headers of its folder
   (then of each folder above) whose text decided them;
4. C.

A header-only C++ library (``include/<lib>/*.h`` with no ``.cpp`` beside it) is
decided by step 2, and its headers that hold no C++ of their own by their
siblings; a plain C header in a C++ project takes the project's language, which
parses it just as well.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

C, CPP, OBJC = "c", "cpp", "objc"
FAMILY = frozenset({C, CPP, OBJC})
AMBIGUOUS_SUFFIX = ".h"

# Source files whose extension says their language (the evidence a project gives).
_SOURCE_LANGUAGE = {
    ".c": C,
    ".cc": CPP,
    ".cpp": CPP,
    ".cxx": CPP,
    ".c++": CPP,
    ".hh": CPP,
    ".hpp": CPP,
    ".hxx": CPP,
    ".h++": CPP,
    ".ipp": CPP,
    ".tpp": CPP,
    ".m": OBJC,
    ".mm": OBJC,
}

_COMMENTS_AND_STRINGS = re.compile(
    rb'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S
)
_OBJC_MARKERS = re.compile(
    rb"^[ \t]*(?:@(?:interface|implementation|protocol|class|end|property)\b|#[ \t]*import\b)",
    re.M,
)
_CPP_MARKERS = re.compile(
    rb"\bnamespace\s+\w*\s*[{=]"
    rb"|\busing\s+namespace\b"
    rb"|\btemplate\s*<"
    rb"|^[ \t]*(?:public|private|protected)\s*:"
    rb"|\b(?:class|struct)\s+\w+\s*(?:final\s*)?:\s*(?:public|private|protected|virtual)\b"
    rb"|\bclass\s+\w+\s*\{"
    rb"|\w::~?\w"
    rb"|\b(?:virtual|typename|noexcept|decltype|static_cast|reinterpret_cast)\b"
    rb"|^[ \t]*#[ \t]*include[ \t]*<[a-z_]+>",
    re.M,
)
_CPLUSPLUS_IF = re.compile(rb"^\s*#\s*(?:ifdef\s+__cplusplus|if\b[^\n]*__cplusplus)")
_IF = re.compile(rb"^\s*#\s*if")
_ELSE = re.compile(rb"^\s*#\s*(?:else|elif)")
_ENDIF = re.compile(rb"^\s*#\s*endif")


def is_ambiguous(rel: str) -> bool:
    """Whether a file's language must be decided from more than its name."""
    return rel.endswith(AMBIGUOUS_SUFFIX)


def admitted(language: str, wanted: frozenset[str] | None) -> bool:
    """Whether ``--languages`` admits a file discovery calls ``language``: a ``.h``
    (called C) is admitted when any of C, C++ and Objective-C is asked for."""
    if wanted is None or language in wanted:
        return True
    return language == C and not FAMILY.isdisjoint(wanted)


def _code(source: bytes) -> bytes:
    """The text with comments, strings and ``#if __cplusplus`` blocks left out."""
    text = _COMMENTS_AND_STRINGS.sub(b" ", source)
    if b"__cplusplus" not in text:
        return text
    kept: list[bytes] = []
    depth = 0  # nesting of #if inside a C++-only block
    skipping = False
    for line in text.split(b"\n"):
        if skipping:
            if _IF.match(line):
                depth += 1
            elif _ENDIF.match(line):
                if depth == 0:
                    skipping = False
                else:
                    depth -= 1
            elif depth == 0 and _ELSE.match(line):
                skipping = False
            continue
        if _CPLUSPLUS_IF.match(line) and b"!" not in line:
            skipping, depth = True, 0
            continue
        kept.append(line)
    return b"\n".join(kept)


def language_of_text(source: bytes) -> str | None:
    """``objc`` or ``cpp`` when the header's own text says so; None when it reads as C."""
    code = _code(source)
    if _OBJC_MARKERS.search(code):
        return OBJC
    if _CPP_MARKERS.search(code):
        return CPP
    return None


def is_source(rel: str) -> bool:
    """A C, C++ or Objective-C source file, whose presence is evidence for its headers."""
    return os.path.splitext(rel)[1].lower() in _SOURCE_LANGUAGE


def decide(source: bytes, hints: FileHints | None = None) -> str:
    """The language to parse a ``.h`` file with (see the module docstring for the order)."""
    if hints is not None and hints.listed:
        return hints.listed
    found = language_of_text(source)
    if found is not None:
        return found
    if hints is not None and hints.project:
        return hints.project
    return C


@dataclass(frozen=True, slots=True)
class FileHints:
    """What the project says of one header: ``listed`` is the language its own
    compile_commands.json entry gives; ``project`` that of the code around it."""

    listed: str = ""
    project: str = ""


@dataclass(frozen=True, slots=True)
class _Unit:
    """One compile_commands.json entry: the file, its language, its include folders."""

    path: str
    language: str
    includes: tuple[str, ...]


def _majority(counts: Mapping[str, int]) -> str:
    """The language with the most votes; a tie goes C++, then Objective-C, then C
    (the grammars that parse more of the others)."""
    if not counts:
        return ""
    order = {CPP: 0, OBJC: 1, C: 2}
    return min(counts, key=lambda lang: (-counts[lang], order.get(lang, 3)))


@dataclass(slots=True)
class HeaderHints:
    """A root's evidence about its headers: compile_commands.json and where its C,
    C++ and Objective-C sources are. Built once per update, from the files it indexes."""

    root: str
    units: list[_Unit] = field(default_factory=list)
    by_folder: dict[str, Counter[str]] = field(default_factory=dict)  # subtree counts
    headers: dict[str, list[str]] = field(default_factory=dict)  # folder -> its .h files
    _header_votes: dict[str, str] = field(default_factory=dict)  # folder -> language

    @classmethod
    def of_root(cls, root: str, rel_paths: Iterable[str]) -> HeaderHints:
        hints = cls(root, _compile_units(root))
        for rel in rel_paths:
            if is_ambiguous(rel):
                hints.headers.setdefault(rel.rpartition("/")[0], []).append(rel)
            language = _SOURCE_LANGUAGE.get(os.path.splitext(rel)[1].lower())
            if language is None:
                continue
            folder = rel
            while folder:
                folder = folder.rpartition("/")[0]
                hints.by_folder.setdefault(folder, Counter())[language] += 1
        return hints

    def of(self, rel: str) -> FileHints:
        """The hints for the header at ``rel`` (relative to the root)."""
        path = os.path.normpath(os.path.join(self.root, rel))
        folder = os.path.dirname(path)
        votes: Counter[str] = Counter()
        listed = ""
        for unit in self.units:
            if unit.path == path:
                listed = unit.language
            elif os.path.dirname(unit.path) == folder or any(
                folder == inc or folder.startswith(inc + os.sep) for inc in unit.includes
            ):
                votes[unit.language] += 1
        project = _majority(votes)
        current = rel
        while current and not project:
            current = current.rpartition("/")[0]
            project = _majority(self.by_folder.get(current, Counter()))
        current = rel
        while current and not project:
            current = current.rpartition("/")[0]
            project = self._headers_say(current)
        return FileHints(listed, project)

    def _headers_say(self, folder: str) -> str:
        """The language the texts of a folder's headers decide, by majority ("" when
        none decides); read once per folder, the first :data:`SNIFFED_BYTES` of each."""
        said = self._header_votes.get(folder)
        if said is None:
            votes: Counter[str] = Counter()
            for rel in self.headers.get(folder, [])[:SNIFFED_HEADERS]:
                try:
                    with open(os.path.join(self.root, rel), "rb") as f:
                        text = f.read(SNIFFED_BYTES)
                except OSError:
                    continue
                found = language_of_text(text)
                if found is not None:
                    votes[found] += 1
            said = self._header_votes[folder] = _majority(votes)
        return said


SNIFFED_HEADERS = 64  # sibling headers read per folder, at most
SNIFFED_BYTES = 32_768


_DATABASE = "compile_commands.json"


def _compile_units(root: str) -> list[_Unit]:
    """The entries of the compile_commands.json at the root or one folder below it."""
    places = [os.path.join(root, _DATABASE)]
    try:
        with os.scandir(root) as scan:
            places += sorted(
                os.path.join(e.path, _DATABASE)
                for e in scan
                if e.is_dir() and not e.name.startswith(".")
            )
    except OSError:
        return []
    units: list[_Unit] = []
    for place in places:
        if not os.path.isfile(place):
            continue
        try:
            with open(place, encoding="utf-8") as f:
                entries = json.load(f)
        except (OSError, ValueError) as exc:
            log.warning("%s is unreadable: %s", place, exc)
            continue
        if isinstance(entries, list):
            units.extend(u for u in map(_unit, entries) if u is not None)
    return units


def _unit(entry: Any) -> _Unit | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        return None
    directory = str(entry.get("directory") or ".")
    arguments = entry.get("arguments")
    if not isinstance(arguments, list):
        try:
            arguments = shlex.split(str(entry.get("command") or ""))
        except ValueError:
            arguments = []
    args = [str(a) for a in arguments]
    path = os.path.normpath(os.path.join(directory, entry["file"]))
    language = _unit_language(args, path)
    includes: list[str] = []
    for i, arg in enumerate(args):
        for flag in ("-I", "-isystem", "-iquote", "-idirafter"):
            if arg == flag and i + 1 < len(args):
                includes.append(args[i + 1])
            elif arg.startswith(flag) and len(arg) > len(flag) and flag == "-I":
                includes.append(arg[2:])
    resolved = tuple(os.path.normpath(os.path.join(directory, inc)) for inc in includes)
    return _Unit(path, language, resolved)


_X_LANGUAGE = {
    "c": C,
    "c-header": C,
    "c++": CPP,
    "c++-header": CPP,
    "objective-c": OBJC,
    "objective-c-header": OBJC,
    "objective-c++": OBJC,
    "objective-c++-header": OBJC,
}


def _unit_language(args: list[str], path: str) -> str:
    """A compile command's language: ``-x``, then ``-std=``, then the compiler's name,
    then the file's extension."""
    for i, arg in enumerate(args):
        value = args[i + 1] if arg == "-x" and i + 1 < len(args) else None
        if value is None and arg.startswith("-x") and len(arg) > 2:
            value = arg[2:]
        if value in _X_LANGUAGE:
            return _X_LANGUAGE[value]
    for arg in args:
        if arg.startswith(("-std=", "/std:")):
            return CPP if "++" in arg or arg.startswith("/std:c++") else C
    if args:
        compiler = os.path.basename(args[0])
        if compiler.endswith("++") or compiler in ("cl", "cl.exe", "clang-cl"):
            return CPP
    return _SOURCE_LANGUAGE.get(os.path.splitext(path)[1].lower(), C)
