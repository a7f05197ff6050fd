"""The exceptions symfuse raises on purpose; front ends translate them at their edge."""

from __future__ import annotations


class SymfuseError(Exception):
    """Base of every error meant for the user: its message is one clear line."""


class IndexCorrupt(SymfuseError):
    """A stored index cannot be used as it is; it is rebuilt."""


class IndexUnavailable(SymfuseError):
    """The index directory cannot be created, locked or written (nothing stored changes)."""


class InvalidRequest(SymfuseError, ValueError):
    """A request field has a bad value. ``field`` names it.

    A ValueError too, so that pydantic validators may raise it and the request
    models hand it on as it is (naming a nested field such as ``fusion_weights.x``).
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class NotFound(SymfuseError):
    """A symbol id, file or path that the index does not know."""


class OutsideWorkspace(SymfuseError):
    """A path that leads outside every workspace root."""
