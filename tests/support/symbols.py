"""Hand-made symbols for unit tests of the ranking pieces (spans filled in for a short def)."""

from __future__ import annotations

from symfuse.indexer.model import Kind, Symbol


def synthetic_symbol(
    name: str,
    *,
    kind: Kind,
    symbol_id: str,
    fqn: str,
    signature: str,
    file: str = "pkg/mod.py",
    parent: str | None = None,
    extends: tuple[str, ...] = (),
    doc: str = "",
) -> Symbol:
    """A Python symbol on lines 1-2 of ``file``, its name starting at column 5."""
    return Symbol(
        symbol_id=symbol_id,
        name=name,
        kind=kind,
        fqn=fqn,
        signature=signature,
        language="python",
        file=file,
        root="r",
        line=1,
        col=1,
        end_line=2,
        end_col=1,
        name_line=1,
        name_col=5,
        name_end_line=1,
        name_end_col=5 + len(name),
        parent=parent,
        extends=extends,
        doc=doc,
    )


def make_symbol(
    name: str,
    *,
    doc: str = "",
    signature: str = "",
    fqn: str = "",
    file: str = "pkg/mod.py",
    kind: Kind = Kind.FUNCTION,
) -> Symbol:
    """A function (by default) in ``file`` whose id, fqn and signature follow from the name."""
    return synthetic_symbol(
        name,
        kind=kind,
        symbol_id=f"{file}::{fqn or name}#{kind.value}",
        fqn=fqn or f"pkg.mod.{name}",
        signature=signature or f"def {name}()",
        file=file,
        doc=doc,
    )
