"""Which pending ``workspace/symbol`` requests the user has typed past.

An editor asks again at each keystroke: ``"a"``, ``"ab"``, ``"abc"``. Only the newest
answer is wanted, so a pending request may be dropped (answered ContentModified) once
a newer one from the same client extends or shortens its query: one query is a
prefix of the other, compared case-insensitively. Any other request, however many
arrive after it, is answered: distinct queries are distinct questions (a script, a
picker filled from several places, a second window).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

MsgId = int | str


@dataclass(frozen=True, slots=True)
class _Pending:
    text: str  # the query, case-folded
    overtaken: threading.Event = field(default_factory=threading.Event)


def typed_on(older: str, newer: str) -> bool:
    """Whether ``newer`` extends or shortens ``older`` (both case-folded)."""
    return newer.startswith(older) or older.startswith(newer)


class SymbolQueries:
    """The pending workspace/symbol requests of one client connection, by request id.

    Called on the event loop as requests arrive and are answered; :meth:`overtaken`
    hands a worker thread a check it may call at any time.
    """

    def __init__(self) -> None:
        self._pending: dict[MsgId, _Pending] = {}
        self._open: dict[MsgId, str] = {}  # the pending not yet overtaken: compared with a newer

    def arrived(self, msg_id: MsgId, query: str) -> None:
        text = query.casefold()
        typed_past = [older for older, seen in self._open.items() if typed_on(seen, text)]
        for older in typed_past:
            self._pending[older].overtaken.set()
            del self._open[older]
        self._pending[msg_id] = _Pending(text)
        self._open[msg_id] = text

    def answered(self, msg_id: MsgId) -> None:
        self._pending.pop(msg_id, None)
        self._open.pop(msg_id, None)

    def overtaken(self, msg_id: MsgId | None) -> Callable[[], bool]:
        """A check: whether a newer request has typed past request ``msg_id``."""
        pending = None if msg_id is None else self._pending.get(msg_id)
        if pending is None:
            return lambda: False
        return pending.overtaken.is_set

    def __len__(self) -> int:
        return len(self._pending)
