"""Rendering answers as JSON, JSON lines, TOON or a terminal table.

Every renderer takes plain JSON-shaped data (dicts, lists, str, int, float,
bool, None), so the formats stay lossless translations of one another: TOON
goes through the official ``toon-format`` encoder and decodes to the JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from enum import StrEnum
from typing import Any

from symfuse.indexer.config import UpdateReport
from symfuse.indexer.model import Symbol


class OutputFormat(StrEnum):
    JSON = "json"
    JSONL = "jsonl"
    TOON = "toon"
    TEXT = "text"
    TABLE = "table"  # the CLI's scored table where its text form is location lines


SYMBOL_FIELDS = (
    "symbol_id",
    "name",
    "kind",
    "fqn",
    "signature",
    "language",
    "file",
    "root",
    "line",
    "col",
    "end_line",
    "end_col",
    "name_line",
    "name_col",
    "name_end_line",
    "name_end_col",
    "parent",
    "decorators",
    "extends",
    "implements",
    "doc",
)


def symbol_dict(symbol: Symbol) -> dict[str, Any]:
    """Every field of a symbol, in a fixed order, JSON-ready."""
    raw = asdict(symbol)
    raw["kind"] = symbol.kind.value
    for name in ("decorators", "extends", "implements"):
        raw[name] = list(raw[name])
    return {name: raw[name] for name in SYMBOL_FIELDS}


def update_counts(report: UpdateReport) -> dict[str, int]:
    """What an update did to the files, as ``symfuse index`` and the ``reindex`` tool show it."""
    return {
        "files": report.files,
        "parsed": report.parsed,
        "unchanged": report.unchanged,
        "removed": report.removed,
        "skipped": len(report.skipped),
    }


def problem_rows(report: UpdateReport) -> list[dict[str, str]]:
    """The files an update indexed only in part, with the reason."""
    return [{"file": f, "problem": p} for f, p in report.problems]


def to_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def to_toon(data: Any) -> str:
    import toon_format  # slow to import: only commands that print TOON pay it

    return str(toon_format.encode(data))


def to_jsonl(rows: Sequence[Mapping[str, Any]]) -> str:
    return "\n".join(json.dumps(row, ensure_ascii=False) for row in rows)


def table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], limit: int = 80) -> str:
    """A plain aligned table with a header; long cells are cut with an ellipsis."""
    if not rows:
        return "(no results)"
    cells = [[_cell(row.get(col), limit) for col in columns] for row in rows]
    widths = [max(len(col), *(len(r[i]) for r in cells)) for i, col in enumerate(columns)]
    lines = ["  ".join(col.upper().ljust(w) for col, w in zip(columns, widths, strict=True))]
    for r in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)


def _cell(value: Any, limit: int) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        text = f"{value:.3f}"
    elif isinstance(value, list):
        text = ",".join(str(v) for v in value)
    else:
        text = str(value)
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render(
    data: Any,
    fmt: OutputFormat,
    *,
    rows_key: str | None = None,
    columns: Sequence[str] = (),
) -> str:
    """One answer in the chosen format; ``rows_key`` names the list shown as a table."""
    if fmt is OutputFormat.JSON:
        return to_json(data)
    if fmt is OutputFormat.TOON:
        return to_toon(data)
    rows: Sequence[Mapping[str, Any]] = data[rows_key] if rows_key else data
    if fmt is OutputFormat.JSONL:
        return to_jsonl(rows)
    text = table(rows, columns)
    if rows_key and isinstance(data, Mapping):
        extras = [f"{k}: {v}" for k, v in data.items() if k != rows_key and not isinstance(v, dict)]
        if extras:
            text += "\n" + "  ".join(extras)
    return text
