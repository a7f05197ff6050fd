"""Result records and their JSON-ready dicts, from the dataclass fields.

The navigation, call-graph, text and routing answers are frozen, slotted
dataclasses that inherit :class:`Record`; ``to_dict()`` walks their fields in
order. A field says how it is shown with ``field(metadata=shown(...))``:

- ``key``: the dict key, when it is not the field's name;
- ``view``: what to show instead of the value (a rounded confidence, some of a
  symbol's fields); its result is used as it is;
- ``flatten``: the view's keys go into the record's own dict, as ``**`` would
  in a dict literal (a key already there keeps its place and takes the value);
- ``omit``: leave the field out, always (True) or when a test of the record holds.

A value without a view is shown as: a record as its dict, a symbol as
:func:`brief`, an enum as its value, a tuple or list as a list, a dict as a
dict of shown values; ``None``, strings and numbers as they are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, ClassVar

from symfuse.indexer.model import Symbol

# The targets an answer about a name lists (usages, a call question), beside their count.
MAX_SHOWN_TARGETS = 20
BRIEF = ("symbol_id", "name", "kind", "fqn", "file", "line", "end_line", "signature", "repository")
_RULE = "symfuse.shown"


@dataclasses.dataclass(frozen=True, slots=True)
class Shown:
    """How one field is shown (see the module docstring)."""

    key: str | None = None
    view: Callable[[Any], Any] | None = None
    flatten: bool = False
    omit: bool | Callable[[Any], bool] = False


_PLAIN = Shown()


def shown(
    *,
    key: str | None = None,
    view: Callable[[Any], Any] | None = None,
    flatten: bool = False,
    omit: bool | Callable[[Any], bool] = False,
) -> dict[str, Shown]:
    """Field metadata saying how the field is shown: ``field(metadata=shown(view=round3))``."""
    return {_RULE: Shown(key, view, flatten, omit)}


class Record:
    """A result dataclass whose ``to_dict()`` is JSON-ready, built from its fields."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            rule: Shown = f.metadata.get(_RULE, _PLAIN)
            if rule.omit is True or (callable(rule.omit) and rule.omit(self)):
                continue
            value = getattr(self, f.name)
            value = plain(value) if rule.view is None else rule.view(value)
            if rule.flatten:
                out.update(value)
            else:
                out[rule.key or f.name] = value
        return out


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data (see the module docstring)."""
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, str | int | float):
        return value
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, Symbol):
        return brief(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    raise TypeError(f"no JSON shape for {type(value).__name__}; give its field a view")


def round3(value: float) -> float:
    """A confidence as answers show it: three decimals."""
    return round(value, 3)


def pick(symbol: Symbol, names: Iterable[str]) -> dict[str, Any]:
    """These fields of ``symbol``, in this order, as JSON-ready data (``repository`` is the
    alias of its root)."""
    return {
        name: symbol.root if name == "repository" else plain(getattr(symbol, name))
        for name in names
    }


def brief(symbol: Symbol) -> dict[str, Any]:
    """The few fields that identify a symbol in an answer."""
    return pick(symbol, BRIEF)


def symbol_view(*names: str) -> Callable[[Symbol], dict[str, Any]]:
    """A view showing these fields of a symbol field, in this order."""
    return lambda symbol: pick(symbol, names)
