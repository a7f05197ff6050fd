"""A chained call's receiver is what the call before it returns (Java, C#, Kotlin).

``cleaner.clean(dirty).text()``: the qualifier ``cleaner.clean(dirty)`` is a call of
``clean`` on ``cleaner``, read as a declaration of what that call returns (``public
Document clean(Element dirty)``: ``Document``), and ``text`` is a member of that type;
so is ``new Element(tag).text()`` of ``Element``. A variable the code declares with
``var doc = cleaner.clean(dirty)`` holds the same. A return type with type arguments
(``List<Element>``, ``Task<Document>``), a type parameter (``<T> T first()``), an array,
or a signature these patterns cannot read says no type: the call stays a guess.

Overloads: when the type's own methods of that name and an inherited one take
different numbers of parameters (``Element.text(String)`` and ``Node.text()``), the
number of arguments the call passes chooses (:mod:`.overloads`); when it does not
(unknown, or several take as many), each is a candidate at ``0.5/n``, as a guess among
same-named definitions is.
"""

from __future__ import annotations

import functools
import re

from symfuse.indexer.files.languages import family
from symfuse.indexer.link.receivers import Declaration
from symfuse.indexer.model import Symbol

# `cleaner.clean`, `a.b(x).c`, `new Element`, `new org.shop.Element`: the callee of the
# qualifier's last call, with what it is called on
_CALLEE = re.compile(r"(?s)(?:(.*)\.)?\s*([A-Za-z_$][\w$]*)\s*")
# `public static Document clean(`: the type written before a method's name (Java, C#)
_C_RETURN = re.compile(
    r"([A-Za-z_$][\w$.]*)\s*(<[^()]*>)?\s*((?:\[\s*\])*)\??\s+"
    r"[A-Za-z_$][\w$]*\s*(?:<[^()]*>)?\s*\("
)
# `fun clean(dirty: Element): Document`: the type after the parameter list (Kotlin)
_KOTLIN_RETURN = re.compile(r"\)\s*:\s*([A-Za-z_][\w.]*)\s*(<.*)?\??\s*(?:=.*)?$")
_TYPE_PARAMETER = re.compile(r"[<,]\s*(?:in\s+|out\s+|reified\s+)?([A-Za-z_$][\w$]*)")
# any number of arguments: varargs, defaults, TypeScript's optional `x?: T`
_FLEXIBLE = re.compile(r"\.\.\.|\bparams\b|\bvararg\b|=|\?\s*:")


def called(qualifier: str) -> Declaration | None:
    """The call a qualifier ends with (``cleaner.clean(dirty)``: ``clean`` on
    ``cleaner``; ``new Element(tag)``: ``Element``), as a declaration of what it
    returns; None when the qualifier is no call."""
    if not qualifier.endswith(")"):
        return None
    opened = _last_group(qualifier)
    if not opened:
        return None
    callee = _without_type_arguments(qualifier[:opened].strip())
    # `new org.shop.Element(tag)` is of the type it names (`new A().b()`: of b's)
    constructed = callee.startswith("new ") and "(" not in callee
    found = _CALLEE.fullmatch(callee[4:] if constructed else callee) if callee else None
    if found is None:
        return None
    receiver = (found.group(1) or "").strip().rstrip("?!")  # Kotlin `a?.b()`, `a!!.b()`
    return Declaration(found.group(2), receiver, not constructed)


def _last_group(text: str) -> int | None:
    """Where the parenthesised group that ends ``text`` opens; strings are skipped."""
    depth, opened, quote, escaped = 0, None, "", False
    for at, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "(":
            opened = at if depth == 0 else opened
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return None
    return opened if depth == 0 and not quote else None


def _without_type_arguments(callee: str) -> str:
    """``new ArrayList<Node>``, ``Get<Document>``: the callee without its ``<...>``."""
    if not callee.endswith(">"):
        return callee
    depth = 0
    for at in range(len(callee) - 1, -1, -1):
        depth += {">": 1, "<": -1}.get(callee[at], 0)
        if depth == 0:
            return callee[:at].rstrip()
    return ""


def returned_type(callee: Symbol, owner: Symbol | None) -> Declaration | None:
    """The workspace-nameable type a Java, C# or Kotlin method's signature returns;
    None for a generic, a type parameter of the method or of ``owner``, an array."""
    signature = callee.signature.split("{", 1)[0].strip()
    if family(callee.language) == "kotlin":
        written = _KOTLIN_RETURN.search(signature)
        generic = written is not None and written.group(2) is not None
        head = signature[: signature.find("(")] if written is not None else ""
    else:
        written = _C_RETURN.search(signature)
        generic = written is not None and bool(written.group(2) or written.group(3))
        head = signature[: written.end()] if written is not None else ""
    if written is None or generic:
        return None
    qualifier, _, name = written.group(1).rpartition(".")
    parameters = set(_TYPE_PARAMETER.findall(_angles(head)))
    if owner is not None:
        named = re.search(rf"\b{re.escape(owner.name)}\s*<", owner.signature)
        if named is not None:
            parameters.update(_TYPE_PARAMETER.findall(_angles(owner.signature[named.end() - 1 :])))
    if name in parameters or (qualifier and qualifier.split(".", 1)[0] in parameters):
        return None
    return Declaration(name, qualifier, False)


def _angles(text: str) -> str:
    """The first ``<...>`` group of ``text`` (type parameters), nested ones within."""
    start, depth = text.find("<"), 0
    for at in range(max(start, 0), len(text) if start >= 0 else 0):
        depth += {"<": 1, ">": -1}.get(text[at], 0)
        if depth == 0:
            return text[start : at + 1]
    return ""


def parameter_count(method: Symbol) -> int | None:
    """How many arguments a method takes, from its signature; None for any number
    (varargs, defaults) or a signature the count cannot be read from."""
    return _parameter_count(method.name, method.signature)


@functools.lru_cache(maxsize=4096)
def _parameter_count(name: str, signature: str) -> int | None:
    found = re.search(rf"\b{re.escape(name)}\s*(?:<[^()]*>)?\s*\(", signature)
    if found is None:
        return None
    depth, count, blank = 0, 1, True
    for char in signature[found.end() :]:
        if char in "(<[{":
            depth += 1
        elif char in ")>]}":
            if depth == 0:
                break
            depth -= 1
        elif char == "," and depth == 0:
            count += 1
        blank = blank and char.isspace()
    inner = signature[found.end() :].split(")", 1)[0]
    if _FLEXIBLE.search(inner):
        return None
    return 0 if blank or inner.strip() == "void" else count  # C++'s `f(void)` takes none


def overloads(levels: list[list[Symbol]]) -> list[Symbol]:
    """The methods a call of a name may be, from its same-named members per class of
    the type's hierarchy (nearest first): the nearest, and an inherited one that takes
    a number of parameters none of the nearest takes."""
    if not levels:
        return []
    nearest = levels[0]
    counts = {parameter_count(m) for m in nearest}
    found = [nearest[0]]
    if None in counts:
        return found
    for level in levels[1:]:
        for method in level:
            count = parameter_count(method)
            if count is not None and count not in counts:
                counts.add(count)
                found.append(method)
    return found
