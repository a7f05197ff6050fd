"""Symfuse's errors as tool errors: one line the model can act on, naming the argument."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mcp.server.mcpserver.exceptions import ToolError

from symfuse.indexer.errors import InvalidRequest, NotFound, OutsideWorkspace, SymfuseError


@contextmanager
def tool_errors(*, not_found: str | None = None) -> Iterator[None]:
    """Translate symfuse errors into tool errors the model can act on.

    ``not_found`` names the argument a NotFound is about when the message does
    not say it already (for example ``symbol_id``).
    """
    try:
        yield
    except InvalidRequest as exc:
        raise ToolError(f"invalid argument {exc}") from exc
    except OutsideWorkspace as exc:
        text = str(exc)
        if "relative" not in text:
            text += "; give a path relative to a workspace root, as answers show them"
        raise ToolError(text) from exc
    except NotFound as exc:
        text = str(exc)
        if not_found and not text.startswith(not_found):
            text = f"{not_found}: {text}"
        raise ToolError(
            f"{text}. Use `search` to find the right symbol_id or path, then call again"
        ) from exc
    except SymfuseError as exc:
        raise ToolError(str(exc)) from exc
