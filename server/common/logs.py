"""``--log-format json``: one JSON object per log record and line.

Every record has ``time`` (ISO 8601, UTC), ``level``, ``logger`` and
``message``; a query's record (:mod:`.observe`) adds ``request_id``,
``operation``, ``front_end``, ``elapsed_ms``, ``results`` and ``cache_hit``;
an exception adds ``exception``. The standard library's formatter does the
rest, so this is the one piece written here: the mapping from a record to
the object, which is ours to define.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        query = getattr(record, "query", None)
        if isinstance(query, dict):
            data.update(query)
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)
