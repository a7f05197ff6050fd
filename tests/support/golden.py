"""Golden symbol dumps: one readable line per definition and per reference."""

from __future__ import annotations

from symfuse.indexer.extract.tags import Extraction


def dump(extraction: Extraction) -> str:
    lines: list[str] = []
    for s in extraction.symbols:
        lines.append(
            f"def {s.kind.value} {s.fqn} @{s.name_line}:{s.name_col}"
            f" [{s.line}:{s.col}-{s.end_line}:{s.end_col}]"
            f" parent={s.parent or '-'}"
            f" decorators={list(s.decorators)} extends={list(s.extends)}"
            f" implements={list(s.implements)}"
        )
        lines.append(f"    sig: {s.signature}")
        if s.doc:
            lines.append(f"    doc: {s.doc.splitlines()[0]}")
    for r in extraction.references:
        extra = f" qualifier={r.qualifier}" if r.qualifier else ""
        extra += f" alias={r.alias}" if r.alias else ""
        lines.append(
            f"ref {r.kind.value} {r.name} @{r.line}:{r.col} in={r.enclosing or '-'}{extra}"
        )
    return "\n".join(lines) + "\n"
