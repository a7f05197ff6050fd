"""Teal (typed Lua) read with the Lua grammar: its types blanked, byte for byte.

The bundled grammars have no Teal; a ``.tl`` file is parsed as Lua. Type annotations
(``function f(a: string, b?: integer): boolean``, ``local x: {string} = {}``), type
declarations (``local record Build ... end``), casts (``x as string``) and type tests
(``v is Table``) are not Lua, and the grammar's recovery lost whole files: luarocks'
``deps.tl`` (877 lines) gave no definition at all. This pre-pass turns Teal into the Lua
it compiles to, keeping every byte's position (so line and column of every name stay
true) and every newline:

- a function's generic parameters, its parameters' ``?`` and ``: type``, and its return
  types are blanked;
- a variable's ``: type`` (and Teal's ``<total>``) in ``local`` and ``global``
  declarations is blanked; ``global`` itself becomes blanks;
- ``local record Name ... end`` (also ``enum``, ``interface``, ``type Name = record``)
  reads as ``local Name ={}``: the body is blanked and its ``end`` becomes ``={}``, so the
  type is a table named where it is declared, spanning its body; ``local type Name =
  <type>`` is blanked whole;
- ``e as T`` loses ``as T``; ``v is T`` becomes ``v == T``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(
    rb"""(?P<comment>--\[(?P<ceq>=*)\[.*?\](?P=ceq)\]|--[^\n]*)
      | (?P<string>\[(?P<seq>=*)\[.*?\](?P=seq)\]|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
      | (?P<name>[A-Za-z_]\w*)
      | (?P<number>\d[\w.]*)
      | (?P<newline>\n)
      | (?P<space>[ \t\r\f]+)
      | (?P<punct>\.\.\.|\.\.|==|~=|<=|>=|::|//|[^\s])""",
    re.S | re.X,
)
_KEYWORDS = frozenset(
    b"and break do else elseif end false for function goto if in local nil not or repeat "
    b"return then true until while".split()
)
_BLOCKS = frozenset({b"record", b"enum", b"interface"})
_OPEN = {b"(": b")", b"{": b"}", b"[": b"]", b"<": b">"}
_EXPRESSION_END = frozenset({b")", b"]", b"}"})
_AS_STOP = frozenset(
    {b")", b",", b"]", b"}", b";", b"=", b"..", b"==", b"~=", b"then", b"do", b"and", b"or"}
)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # name, number, string, newline, punct
    text: bytes
    start: int
    end: int


def teal_to_lua(source: bytes) -> bytes:
    """``source`` with its Teal-only syntax blanked (see the module docstring)."""
    tokens = [
        _Token(m.lastgroup or "", m.group(0), m.start(), m.end())
        for m in _TOKEN.finditer(source)
        if m.lastgroup not in ("comment", "space", "ceq", "seq")
    ]
    out = bytearray(source)
    _Rewriter(tokens, out).run()
    return bytes(out)


class _Rewriter:
    def __init__(self, tokens: list[_Token], out: bytearray) -> None:
        self.t = tokens
        self.out = out

    def blank(self, start: int, end: int) -> None:
        """Tokens ``start`` to ``end`` (exclusive) as blanks, newlines kept."""
        if start >= end:
            return
        a, b = self.t[start].start, self.t[end - 1].end
        self.out[a:b] = bytes(c if c == 0x0A else 0x20 for c in self.out[a:b])

    def at(self, i: int) -> bytes:
        return self.t[i].text if i < len(self.t) else b""

    def run(self) -> None:
        i = 0
        while i < len(self.t):
            i = self.step(i)

    def step(self, i: int) -> int:
        text, previous = self.at(i), self.at(i - 1) if i else b""
        if self.t[i].kind != "name" or previous in (b".", b":"):
            return i + 1
        if text == b"function":
            return self.function(i + 1)
        if text in (b"local", b"global"):
            return self.declaration(i)
        if text in _BLOCKS and self.t[i + 1 : i + 2] and self.t[i + 1].kind == "name":
            return self.block(i, i)  # a nested or global record without `local`
        if text == b"is" and self._ends_expression(i - 1):
            return self.type_test(i)
        if text == b"as" and self._ends_expression(i - 1):
            return self.cast(i)
        return i + 1

    def _ends_expression(self, i: int) -> bool:
        if i < 0:
            return False
        token = self.t[i]
        if token.kind in ("string", "number"):
            return True
        if token.kind == "name":
            return token.text not in _KEYWORDS
        return token.text in _EXPRESSION_END

    def skip_group(self, i: int) -> int:
        """The index past the bracket group opening at ``i``."""
        close, depth = _OPEN[self.at(i)], 0
        opening = self.at(i)
        while i < len(self.t):
            if self.at(i) == opening:
                depth += 1
            elif self.at(i) == close:
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return i

    def type_end(self, i: int, stops: frozenset[bytes], newline_stops: bool = True) -> int:
        """The index of the first token from ``i`` at bracket depth 0 that ends a type."""
        while i < len(self.t):
            token = self.t[i]
            if token.kind == "newline":
                if newline_stops:
                    return i
            elif token.text in _OPEN and token.kind == "punct":
                i = self.skip_group(i)
                continue
            elif token.text in stops:
                return i
            i += 1
        return i

    def function(self, i: int) -> int:
        """After ``function``: its name, generics, typed parameters and return types."""
        while self.at(i) and (self.t[i].kind == "name" or self.at(i) in (b".", b":")):
            if self.t[i].kind == "name" and self.at(i) in _KEYWORDS:
                break
            i += 1
        if self.at(i) == b"<":
            end = self.skip_group(i)
            self.blank(i, end)
            i = end
        if self.at(i) != b"(":
            return i
        close = self.skip_group(i) - 1
        j = i + 1
        while j < close:
            if self.at(j) in (b"?", b":"):
                end = self.type_end(j, frozenset({b",", b")"}), newline_stops=False)
                if self.at(j + 1) == b"function" or self.at(j + 2) == b"function":
                    end = close  # a function type's return types run to the closing paren
                end = min(end, close)
                self.blank(j, end)
                j = end
            j += 1
        i = close + 1
        if self.at(i) == b":":
            stops = _KEYWORDS - {b"function", b"nil"} | {b"=", b";"}
            end = self.type_end(i, frozenset(stops))
            self.blank(i, end)
            i = end
        return i

    def declaration(self, i: int) -> int:
        """``local``/``global``: a function, a type declaration, or typed variables."""
        keyword = self.at(i)
        if keyword == b"global":
            self.blank(i, i + 1)
        following = self.at(i + 1)
        if following == b"function":
            return self.function(i + 2)
        if following in _BLOCKS:
            return self.block(i, i + 1) if keyword == b"local" else self.global_block(i)
        if following == b"type":
            return self.type_alias(i)
        j = i + 1
        while j < len(self.t) and self.t[j].kind != "newline" and self.at(j) != b"=":
            if self.at(j) == b"<" and self.at(j + 1) == b"total":
                self.blank(j, j + 3)
                j += 3
                continue
            if self.at(j) == b":":
                end = self.type_end(j, frozenset({b"="}))
                self.blank(j, end)
                j = end
                continue
            j += 1
        return j

    def block(self, first: int, keyword: int) -> int:
        """``[local] record Name ... end``: ``local Name`` stays (blanks for the rest)."""
        name = keyword + 1
        if first != keyword:
            self.blank(keyword, name)  # `record` of `local record Name`
        else:
            self.blank(first, name)
        end = self.block_end(name + 1)
        if first == keyword:
            self.blank(name, end)  # without `local` the bare name is not Lua
        else:
            self.blank(name + 1, end)
            self.table_at_end(end)
        return end

    def table_at_end(self, end: int) -> None:
        """``end`` (the last token before ``end``) becomes ``={}``: ``local Name ={}`` is
        a Lua table whose span is the type's."""
        closing = self.t[end - 1]
        if closing.text == b"end":
            self.out[closing.start : closing.end] = b"={}"

    def global_block(self, i: int) -> int:
        """``global record Name ... end`` reads as ``local Name`` (``global`` is blanked)."""
        self.out[self.t[i].start : self.t[i].start + 6] = b"local "
        return self.block(i, i + 1)

    def block_end(self, i: int) -> int:
        """The index past the ``end`` that closes a record, enum or interface body."""
        depth = 1
        while i < len(self.t):
            token = self.t[i]
            if token.kind == "name" and self.at(i - 1) not in (b".", b":"):
                if token.text in _BLOCKS and self._opens_block(i):
                    depth += 1
                elif token.text == b"end":
                    depth -= 1
                    if depth == 0:
                        return i + 1
            i += 1
        return i

    def _opens_block(self, i: int) -> bool:
        """Whether the ``record`` / ``enum`` / ``interface`` at ``i`` opens a body (it is
        followed by a name, generics or the body's first line; not a field so named)."""
        if i + 1 >= len(self.t):
            return False
        after = self.t[i + 1]
        return after.kind in ("name", "newline") or after.text == b"<"

    def type_alias(self, i: int) -> int:
        """``local type Name = T``: blanked whole (a record or enum body too)."""
        j = self.type_end(i + 2, frozenset({b"="}))
        if self.at(j + 1) in _BLOCKS and self.t[i + 2].kind == "name":
            end = self.block_end(j + 2)
            self.blank(i + 1, i + 2)  # `type`: `local Name ={}` stays
            self.blank(i + 3, end)
            self.table_at_end(end)
            return end
        end = self.type_end(j + 1, frozenset())
        self.blank(i, end)
        return end

    def type_test(self, i: int) -> int:
        """``v is T``: ``v == T`` for a named type, ``v ~=nil`` for a table or generic one."""
        end = self.type_end(i + 1, _AS_STOP)
        a, b = self.t[i].start, self.t[end - 1].end if end > i + 1 else self.t[i].end
        named = all(t.kind == "name" or t.text == b"." for t in self.t[i + 1 : end])
        if named:
            self.out[self.t[i].start : self.t[i].end] = b"=="
        else:
            self.blank(i, end)
            self.out[a : a + 5] = b"~=nil"[: b - a]
        return end

    def cast(self, i: int) -> int:
        """``e as T``: ``as T`` blanked."""
        end = self.type_end(i + 1, _AS_STOP)
        self.blank(i, end)
        return end
