"""Symfuse's errors as tool errors: one line the model can act on, naming the argument."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from symfuse.indexer.errors import InvalidRequest, NotFound, OutsideWorkspace, SymfuseError
from symfuse.server.mcp.protocol import ToolError

__all__ = ["ToolError", "given", "tool_errors"]

_NAMED = re.compile(r"^[A-Za-z_][\w.\[\]]*: ")  # a message that starts by naming a field
_TARGETS = re.compile(r"^(target|symbol_id|name|path): ")  # the ways to name a target


def given(request: object, *names: str) -> str:
    """The first of ``names`` that ``request`` has a value for: the argument the call used
    to name its target (``target``, or an older ``symbol_id``); else the first."""
    return next((name for name in names if getattr(request, name, None) is not None), names[0])


@contextmanager
def tool_errors(
    *, not_found: str | None = None, public: Callable[[str], str] | None = None
) -> Iterator[None]:
    """Translate symfuse errors into tool errors the model can act on.

    ``not_found`` names the argument a NotFound is about when the message names none,
    or names the target another way (the core may say ``name:`` of what the call gave as
    ``target``), so that one argument leads the line; so does a target outside the
    workspace. A message naming another argument (``at_commit``) keeps it. ``public``
    gives the name a tool publishes a request field under, for an InvalidRequest the
    operation raises (``search_text``'s ``pattern`` is its ``query``).
    """
    try:
        yield
    except InvalidRequest as exc:
        text = str(exc)
        if public is not None:
            text = public(exc.field) + text.removeprefix(exc.field)
        if not_found and _TARGETS.match(text):  # "name: 'total' names 2 definitions"
            text = _TARGETS.sub(f"{not_found}: ", text, count=1)
        raise ToolError(f"invalid argument {text}") from exc
    except OutsideWorkspace as exc:
        text = str(exc)
        if not_found:  # a target outside: name it as the call did (a file hint stays)
            text = _TARGETS.sub(f"{not_found}: ", text, count=1)
        if "relative" not in text:
            text += "; give a path relative to a workspace root, as answers show them"
        raise ToolError(text) from exc
    except NotFound as exc:
        text = str(exc)
        if not_found and _TARGETS.match(text):
            text = _TARGETS.sub(f"{not_found}: ", text, count=1)
        elif not_found and not _NAMED.match(text):
            text = f"{not_found}: {text}"
        raise ToolError(
            f"{text.rstrip('.')}. Use `search` to find the symbol_id or path to pass, "
            "then call again"
        ) from exc
    except SymfuseError as exc:
        raise ToolError(str(exc)) from exc
