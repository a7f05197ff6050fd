"""Configuration: one validated set of settings from four sources, each value's origin kept.

Highest first: command-line options, environment variables (``SYMFUSE_<KEY>``),
``symfuse.toml`` at the (first) workspace root, then the user's
``config.toml`` (``$XDG_CONFIG_HOME/symfuse/config.toml``, by default
``~/.config/symfuse/config.toml``). Each source is validated on its own, so a
bad value is one :class:`SettingsError` naming the file (or variable), the key
and how to fix it; an unknown key lists the known ones. ``symfuse config``
prints :meth:`Resolved.rows`: every key, its effective value and where it came
from.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.files.discover import DEFAULT_MAX_FILE_SIZE
from symfuse.ranking.query.fields import split_list
from symfuse.server.common.config_files import ENV_PREFIX, WORKSPACE_FILE, user_file

DEFAULT_MAX_TOKENS = 2000  # the MCP answer budget (server/common/present.py has the same default)

Globs = Annotated[tuple[str, ...], BeforeValidator(split_list)]


class Settings(BaseModel):
    """Every setting, with its type, bounds and what it is for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    include: Globs = Field((), description="only index paths matching these globs")
    exclude: Globs = Field((), description="skip paths matching these globs")
    languages: Globs = Field((), description="only index these languages (default: all)")
    max_file_size: int = Field(
        DEFAULT_MAX_FILE_SIZE, ge=1, le=1 << 31, description="skip larger files (bytes)"
    )
    index_dir: Path | None = Field(
        None, description="where the index lives (default: the user cache, keyed by the roots)"
    )
    jobs: int | None = Field(None, ge=1, le=256, description="parser processes (default: cores)")
    limit: int | None = Field(
        None, ge=1, le=10_000, description="default result limit of the query commands"
    )
    max_tokens: int = Field(
        DEFAULT_MAX_TOKENS, ge=200, le=50_000, description="default MCP answer budget in tokens"
    )
    output_format: Literal["text", "json", "toon"] | None = Field(
        None, description="default output format of the commands (default: each command's)"
    )
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        "warning", description="the least severe log records written"
    )
    log_format: Literal["text", "json"] = Field(
        "text", description="json: one object per line with request_id, operation, elapsed_ms"
    )
    log_file: Path | None = Field(None, description="write logs here instead of stderr")
    similarity_model: Literal["repository", "off"] = Field(
        "repository",
        description="the similarity channel's model: repository (trained on the code, no "
        "download) or off (searches leave the channel out unless they ask for it)",
    )


KEYS = tuple(Settings.model_fields)
_FIXES = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "greater_than_equal": "a larger number",
    "less_than_equal": "a smaller number",
    "literal_error": "one of the listed values",
    "extra_forbidden": "a known key",
}


class SettingsError(SymfuseError):
    """A bad setting: where it was, which key, and the fix."""


@dataclass(frozen=True, slots=True)
class Resolved:
    """The effective settings and, for each key, the source it came from."""

    settings: Settings
    origins: dict[str, str]

    def rows(self) -> list[dict[str, Any]]:
        values = self.settings.model_dump(mode="json")
        return [
            {"key": key, "value": values[key], "source": self.origins.get(key, "default")}
            for key in KEYS
        ]


def resolve(workspace: Path | None, given: Mapping[str, Any]) -> Resolved:
    """Merge the four sources (``given``: the command-line values, None where not given)."""
    merged: dict[str, Any] = {}
    origins: dict[str, str] = {}
    layers: list[tuple[str, dict[str, Any]]] = [(str(user_file()), _toml(user_file()))]
    if workspace is not None:
        layers.append((str(workspace / WORKSPACE_FILE), _toml(workspace / WORKSPACE_FILE)))
    layers.append(("environment", _environment()))
    layers.append(("command line", {k: v for k, v in given.items() if _given(v)}))
    for where, values in layers:
        checked = _check(where, values)
        for key in values:
            merged[key] = getattr(checked, key)
            origins[key] = _origin(where, key)
    return Resolved(Settings.model_validate(merged), origins)


def _given(value: Any) -> bool:
    return value is not None and value not in ([], ())


def _origin(where: str, key: str) -> str:
    if where == "environment":
        return ENV_PREFIX + key.upper()
    if where == "command line":
        return "--" + key.replace("_", "-")
    return where


def _toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise SettingsError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        data = tomllib.loads(text.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: not valid TOML ({exc}); fix the syntax") from None
    table = data.get("symfuse", data)  # a [symfuse] table, or keys at the top
    return dict(table) if isinstance(table, dict) else {}


def _environment() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key in KEYS:
        value = os.environ.get(ENV_PREFIX + key.upper())
        if value is not None and value.strip():
            found[key] = value.strip()
    return found


def _check(where: str, values: dict[str, Any]) -> Settings:
    """``values`` validated alone, so that an error names this source."""
    try:
        return Settings.model_validate(values)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        key = str(error["loc"][0]) if error["loc"] else "?"
        shown = ENV_PREFIX + key.upper() if where == "environment" else key
        place = "" if where == "environment" else f"{where}: "
        if error["type"] == "extra_forbidden":
            raise SettingsError(
                f"{place}{shown}: unknown setting; the known ones are {', '.join(KEYS)}"
            ) from None
        field = Settings.model_fields[key]
        fix = _FIXES.get(error["type"], "a valid value")
        raise SettingsError(
            f"{place}{shown}: {error['msg']} (got {error['input']!r}); set it to {fix}: "
            f"{field.description}"
        ) from None
