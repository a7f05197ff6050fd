"""What this symfuse is: the installed distribution's version."""

from __future__ import annotations


def version() -> str:
    """The installed distribution's version ("0" when it is not installed, as from a tree)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("symfuse")
    except PackageNotFoundError:
        return "0"
