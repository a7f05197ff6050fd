"""The navigation tools: ``find_usages`` and ``get_symbol``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from symfuse.ranking.api import FileOutline
from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import GetRequest, UsagesRequest
from symfuse.server.common.present import (
    CHARS_PER_TOKEN,
    CLIP_MARK,
    IN_THE_ID,
    Fitted,
    Format,
    Grouping,
    clip_strings,
    estimate_tokens,
    fit,
    lean,
    render,
)
from symfuse.server.mcp.errors import given, tool_errors
from symfuse.server.mcp.models import SymbolResult, UsagesResult
from symfuse.server.mcp.protocol import Annotations, ToolAnswer
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend, as_result
from symfuse.server.mcp.surface import Surface

USAGES_DESCRIPTION = """\
List the places that use a symbol: calls, references, imports, inheritance,
decorators, type annotations; each with file, line, column, kind, the enclosing
definition and the source line, code before tests. Resolved through scopes and
imports; `confidence` is below 1 where only the name decided.
Examples: {"target": "shop/service.py::checkout#function"} ;
{"target": "Order", "kind": "inherit"}"""

GET_DESCRIPTION = """\
Read a symbol's source (by id or name) with its signature, doc, parent, children and
call counts; or, for a file path, its outline (every definition with its symbol_id); or, for
"path:line", the definition containing that line. A long source comes in pages:
when the answer says truncated, call again with `offset` = next_offset.
Examples: {"target": "shop/models.py::Order.total#method"} ;
{"target": "shop/models.py"} ; {"target": "shop/models.py:42"}"""

TARGET = 'a symbol_id from search, a name or qualified name ("Order.total"), or "path:line"'
USAGES_SURFACE = Surface(
    shown=("target", "kind", "min_confidence", "limit", "offset"),
    renamed={"kind": "kinds"},
    required={"target": ("symbol_id", "name")},
    unlisted=("symbol_id", "name"),
    notes={
        "target": TARGET,
        "kind": "only these uses: call, reference, import, inherit, implement, decorate, "
        "type (one or a list)",
        "min_confidence": "list usages linked at least this surely (default 0.5); guesses "
        "by name below it are counted as unresolved; 0 lists them",
        "limit": "most usages",
        "offset": "skip this many (paging: next_offset)",
    },
)
GET_SURFACE = Surface(
    shown=("target", "offset"),
    required={"target": ("symbol_id", "path")},
    unlisted=("symbol_id", "path"),
    notes={
        "target": 'a symbol_id, a name or qualified name ("Order.total"), a file path (its '
        'outline), or "path:line"',
        "offset": "the source line to continue from (next_offset)",
    },
)


_READ_ONLY = {"read_only_hint": True, "open_world_hint": False}


def register(server: Toolbox, backend: Backend) -> None:
    def find_usages(request: UsagesRequest, rendering: Rendering) -> ToolAnswer:
        with (
            tool_errors(not_found=given(request, "target", "symbol_id", "name")),
            backend.reading() as index,
        ):
            result = operations.usages(index, request)
        data = _lean_usages(result.to_dict(), len(backend.service.config.roots) == 1)
        return backend.answer(
            data,
            "usages",
            rendering.format,
            rendering.max_tokens,
            offset=request.offset,
            total=result.total,
            grouping=Grouping.USAGES_BY_FILE if request.group_by_file else None,
        )

    def get_symbol(request: GetRequest, rendering: Rendering) -> ToolAnswer:
        budget = rendering.max_tokens or backend.options.default_max_tokens
        offset = request.offset
        with tool_errors(not_found=given(request, "target", "symbol_id", "path")):
            histories = backend.histories() if request.needs_history else None
            with backend.reading() as index:
                found = operations.get(index, request, histories)
                fresh = backend.freshness()
            if isinstance(found, FileOutline):
                rows = _flatten(found.to_dict()["symbols"], 0)
                outline: dict[str, Any] = {
                    "file": found.file,
                    "language": found.language,
                    "outline": rows[offset:],
                    **fresh,
                }
                fitted = fit(
                    outline, "outline", rendering.format, budget, offset=offset, total=len(rows)
                )
                return as_result(fitted)
            detail = _slim(found.to_dict(), len(backend.service.config.roots) == 1)
        return as_result(_fit_source(detail, fresh, offset, rendering.format, budget))

    for name, model, body, result, title, description, surface in (
        (
            "find_usages",
            UsagesRequest,
            find_usages,
            UsagesResult,
            "Find usages",
            USAGES_DESCRIPTION,
            USAGES_SURFACE,
        ),
        (
            "get_symbol",
            GetRequest,
            get_symbol,
            SymbolResult,
            "Get symbol",
            GET_DESCRIPTION,
            GET_SURFACE,
        ),
    ):
        server.add_tool(
            # get_symbol pages source by its own budget rules and costs under a millisecond:
            # not worth a cache entry.
            backend.tool(
                name,
                model,
                body,  # type: ignore[arg-type]
                result,
                surface,
                cached=name != "get_symbol",
            ),
            name=name,
            description=description,
            annotations=Annotations(title=title, **_READ_ONLY),
        )


_BRIEF = ("symbol_id", "name", "kind", "line", "signature")
_LONG_FIELDS = ("doc", "signature", "context_before", "context_after")
MIN_LINE_CHARS = 80  # a source line shown when nothing else fits is cut to this at least


# a symbol's fields an agent reads only when they say something
_UNLESS_EMPTY = ("doc", "decorators", "extends", "implements", "children")


def _slim(detail: dict[str, Any], one_root: bool) -> dict[str, Any]:
    """Parent and children by id, name, kind, line and signature (their file is the same);
    without what the symbol_id says (name, kind, file), the one root's alias, and the
    relations and doc it does not have."""
    if isinstance(detail.get("parent"), dict):
        detail["parent"] = {k: detail["parent"].get(k) for k in _BRIEF}
    detail["children"] = [{k: c.get(k) for k in _BRIEF} for c in detail.get("children") or []]
    dropped = {"type", "name", "kind", "file", *(("repository",) if one_root else ())}
    dropped.update(k for k in _UNLESS_EMPTY if not detail.get(k))
    return lean(detail, dropped)


def _lean_usages(data: dict[str, Any], one_root: bool) -> dict[str, Any]:
    """A usages answer without what every row would repeat: the one root's alias, the one
    target's id, and the fields of a target its symbol_id holds."""
    for key in ("offset", "limit", "truncated"):
        data.pop(key, None)
    dropped = {"repository"} if one_root else set()
    if data["target_count"] == 1:
        dropped.add("target")
    data["targets"] = [lean(t, IN_THE_ID | dropped) for t in data["targets"]]
    data["usages"] = [lean(u, dropped) for u in data["usages"]]
    return data


def _flatten(nodes: list[dict[str, Any]], depth: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for node in nodes:
        row = {k: v for k, v in node.items() if k != "children"}
        row["depth"] = depth
        rows.append(row)
        rows.extend(_flatten(node.get("children") or [], depth + 1))
    return rows


def _fit_source(
    detail: dict[str, Any], fresh: dict[str, Any], offset: int, fmt: Format, budget: int
) -> Fitted:
    """The symbol with as many source lines (from ``offset``) as the budget allows.

    The first page carries the symbol's record: when the fields around the source take
    more than half the budget, context lines go first, then children beyond the first
    few; each cut is named in ``hint``. A next page (``offset`` > 0) carries the source
    alone (the symbol_id, the first line's number and the lines): the record was on the
    first page, and a small budget still reads on by many lines a page.
    """
    lines = str(detail.get("source", "")).split("\n")[offset:]
    start_line = int(detail.get("start_line", detail.get("line", 1))) + offset
    more_in_file = bool(detail.pop("source_truncated", False))
    if offset:
        detail = {"symbol_id": detail.get("symbol_id")}
    detail["source"] = ""
    detail["start_line"] = start_line
    data: dict[str, Any] = {"symbol": detail, **fresh, "truncated": False}
    if "evolution" in detail:  # show_evolution: beside the symbol, as SymbolResult says
        data["evolution"] = detail.pop("evolution")
    page = _Page(data, lines, fmt, budget, offset, more_in_file)
    notes = [] if offset else _make_room(detail, budget, lambda: page.tokens(0, []))
    shown = _source_that_fits(page, notes)
    page.tokens(shown, notes)  # leaves data as shown
    text = render(data, fmt)
    return Fitted(data, text, estimate_tokens(text), shown)


@dataclass(slots=True)
class _Page:
    """One get_symbol answer being fitted: ``data`` shown with the first ``n`` of ``lines``."""

    data: dict[str, Any]
    lines: list[str]
    fmt: Format
    budget: int
    offset: int
    more_in_file: bool

    def tokens(self, n: int, notes: list[str]) -> int:
        """The answer's size with the first ``n`` lines (``data`` is left so)."""
        symbol = self.data["symbol"]
        symbol["source"] = "\n".join(self.lines[:n])
        cut = n < len(self.lines) or self.more_in_file
        cause = f"max_tokens={self.budget}" if n < len(self.lines) else "max_lines"
        note = _cut_note(cause, symbol["start_line"], self.offset, n)
        hints = [note, *notes] if cut else list(notes)
        self.data["truncated"] = bool(hints)
        self.data.pop("next_offset", None)
        self.data.pop("hint", None)
        if cut:
            self.data["next_offset"] = self.offset + n
        if hints:
            self.data["hint"] = "; ".join(hints)
        return estimate_tokens(render(self.data, self.fmt))

    def most_lines(self, notes: list[str]) -> int:
        """The most lines whose answer fits the budget (0 if none does)."""
        low, high = 0, len(self.lines)
        while low < high:  # the answer grows with every line: binary search
            middle = (low + high + 1) // 2
            if self.tokens(middle, notes) <= self.budget:
                low = middle
            else:
                high = middle - 1
        return low


def _make_room(detail: dict[str, Any], budget: int, size: Callable[[], int]) -> list[str]:
    """While the fields around the source take more than half the budget, drop the context
    lines, then halve the children down to one; a note for each cut."""
    notes: list[str] = []
    if size() > budget // 2 and (detail.get("context_before") or detail.get("context_after")):
        detail["context_before"] = detail["context_after"] = ""
        notes.append("context lines dropped")
    children = list(detail.get("children") or [])
    if size() > budget // 2 and len(children) > 1:
        keep = len(children)
        while keep > 1 and size() > budget // 2:
            keep //= 2
            detail["children"] = children[:keep]
        notes.append(
            f"{keep} of {len(children)} children shown (get_symbol with the file's path "
            "lists them all)"
        )
    return notes


def _source_that_fits(page: _Page, notes: list[str]) -> int:
    """How many source lines the page shows: as many as fit, and one at least, so that
    ``next_offset`` always moves on (clipping the long fields around it, then the line)."""
    shown = page.most_lines(notes)
    if shown or not page.lines:
        return shown
    detail = page.data["symbol"]
    if not page.offset:  # a long docstring, say, filled the budget: clip the fields
        for key in _LONG_FIELDS:
            detail[key] = clip_strings(detail.get(key), page.budget * CHARS_PER_TOKEN // 8)
        notes.append(f"long fields clipped (marked {CLIP_MARK})")
        shown = page.most_lines(notes)
        if shown:
            return shown
    room = (page.budget - page.tokens(0, notes)) * CHARS_PER_TOKEN
    page.lines[0] = clip_strings(page.lines[0], max(MIN_LINE_CHARS, room))
    return 1


def _cut_note(cause: str, start_line: int, offset: int, shown: int) -> str:
    """The hint when the source is cut (``cause``: the budget, or max_lines): what is shown
    and how to read on (short: every page of a long source carries it)."""
    where = f"lines {start_line}-{start_line + shown - 1}" if shown else "no source line"
    return f"{where} shown ({cause}); offset={offset + shown} reads on"
