"""What a tool is and answers, in symfuse's own records: no MCP SDK import.

The tools, their bodies and :class:`~symfuse.server.mcp.server.Backend` speak these; the
two ways a server answers translate them to the wire: the SDK's ``MCPServer`` once it has
loaded (:mod:`.sdk`), and the stdio front meanwhile (:mod:`.front`), so that the first
answers of a session wait for none of the SDK's import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from symfuse.server.mcp.pools import Lane


class ToolError(Exception):
    """A tool's failure in words the model can act on: answered as an error result
    (``isError``) prefixed with the tool's name, as the SDK answers its own ToolError."""


@dataclass(frozen=True, slots=True)
class ToolAnswer:
    """A tool's answer: the text the model reads and the structured content."""

    text: str
    data: dict[str, Any] | None = None
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class Annotations:
    """A tool's hints (MCP ``ToolAnnotations``), by their Python names."""

    title: str | None = None
    read_only_hint: bool | None = None
    destructive_hint: bool | None = None
    idempotent_hint: bool | None = None
    open_world_hint: bool | None = None

    def wire(self) -> dict[str, Any]:
        """The annotations as they are published: camelCase, set ones only, sorted as the
        SDK writes them."""
        named = {
            "destructiveHint": self.destructive_hint,
            "idempotentHint": self.idempotent_hint,
            "openWorldHint": self.open_world_hint,
            "readOnlyHint": self.read_only_hint,
            "title": self.title,
        }
        return {key: value for key, value in named.items() if value is not None}


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: what ``tools/list`` publishes of it and the function that answers a call.

    ``call`` takes the call's arguments as they came and returns the answer or raises
    :class:`ToolError` (synchronous: it runs in ``lane``'s thread pool).
    """

    name: str
    description: str
    annotations: Annotations | None
    input_schema: Mapping[str, Any]
    output_model: type[Any] | None
    call: Callable[..., ToolAnswer] = field(repr=False)
    lane: Lane = Lane.QUERY
