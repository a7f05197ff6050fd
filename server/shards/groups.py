"""Many shards held by one long-lived Dask actor per worker, asked in one call.

An actor per shard costs the client one round trip per shard and query, so fan-out
grew with the shard count. A :class:`ShardGroup` holds every shard placed on its worker
(a :class:`.holders.ShardHolder` each) and answers for all of them in one call: each
shard runs on a thread of its own (Dask runs an actor's plain methods one at a time, a
hung shard would hold up the rest), within the deadline the call carries, so a slow
shard comes back as timed out and the others answer. The parts of a search are cut,
before they leave the worker, to the candidates that can reach the fused answer
(:func:`symfuse.ranking.shards.compact.compacted`), and only the candidates left are
keyed as a multi-root index keys them: what a worker sends does not grow with the
shards it holds. A search over every shard of the group is one search over them joined
as one index (:mod:`.joined`) when it can be, sent as one part for them all.
:class:`Member` is one shard's share of a group's answer, read as that shard's own
pending answer (:class:`.fanout.Pending`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import pickle
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from symfuse.indexer.errors import SymfuseError
from symfuse.ranking.api import Packer, compacted
from symfuse.server.shards.fanout import Pending
from symfuse.server.shards.holders import ShardHolder
from symfuse.server.shards.joined import Joined

GROUP_SHARE = 0.9  # of the caller's deadline a group waits for its shards


class ShardFailed(SymfuseError):
    """A shard's own failure, as its group reported it."""


@dataclass(frozen=True, slots=True)
class GroupAnswer:
    """What each shard of a group answered, why the others did not, who ran out of time."""

    answers: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    late: tuple[str, ...] = ()


class ShardGroup:
    """The shards of one worker (alias -> folder), loaded once, asked together."""

    def __init__(self, directories: dict[str, str]) -> None:
        self.holders = {alias: ShardHolder(d) for alias, d in directories.items()}
        # a thread per shard and spares: a hung shard keeps its thread (and is not asked
        # again until it lets go of it), the others run
        self._pool = ThreadPoolExecutor(2 * len(directories) + 2, thread_name_prefix="shard")
        self._stuck: dict[str, asyncio.Future[Any]] = {}
        self.joined = Joined(self.holders)  # its shards as one index (.joined)
        self.packer = Packer()  # the bytes of the symbols its parts send (.packed)

    async def ask(self, method: str, aliases: list[str], deadline: float, *args: Any) -> Any:
        """``method`` of each of ``aliases``' holders with ``args``, all within ``deadline``
        seconds (a :class:`GroupAnswer`); a search's parts from the shards joined as one
        index when it can (:mod:`.joined`)."""
        if method == "part":
            found = await self._joined_parts(aliases, deadline, args[0])
            if found is not None:
                return self._packed(found)
        answer = await self._each(method, aliases, deadline, *args)
        if method == "warm" and not answer.errors and not answer.late and self.joined.possible:
            await asyncio.get_running_loop().run_in_executor(self._pool, self.joined.build)
        elif method == "part":
            self.joined.refresh(self._pool)
            return self._packed(answer)
        return answer

    def _packed(self, answer: GroupAnswer) -> GroupAnswer:
        """``answer``'s parts with their symbols packed for the way out
        (:mod:`symfuse.ranking.shards.packed`: each pickled once, made again where read)."""
        answers = {
            alias: part if part is None else part.keyed(self.packer.packed(part.symbols))
            for alias, part in answer.answers.items()
        }
        return dataclasses.replace(answer, answers=answers)

    async def call(self, asked: bytes) -> bytes:
        """:meth:`ask` as the fleet calls it through Dask (:func:`packed_call`): its
        arguments and its answer pickled by us, one frame each way.

        Dask encodes each argument on its own, each name of a list of aliases apart
        (about 2 ms a call for a group of 20), and pickles an answer a second time with
        cloudpickle's pure-Python pickler whenever its bytes hold ``__main__``, as a part
        naming a ``__main__.py`` does (3-5 ms); bytes it sends as they are."""
        method, aliases, deadline, args = pickle.loads(asked)
        answer = await self.ask(method, aliases, deadline, *args)
        return pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)

    async def _joined_parts(
        self, aliases: list[str], deadline: float, request: Any
    ) -> GroupAnswer | None:
        """The part of ``aliases`` from one search over the joined index, given as the
        first one's answer (the others answer None), or None when it cannot answer (the
        shards then answer one by one)."""
        joined = self.joined.current(aliases)
        if joined is None:
            return None
        future = asyncio.get_running_loop().run_in_executor(self._pool, joined.part, request)
        await asyncio.wait([future], timeout=deadline)
        if not future.done():
            self.joined.busy = future
            future.add_done_callback(_retrieved)
            return GroupAnswer(late=tuple(aliases))
        part = None if future.exception() is not None else future.result()
        if part is None:
            return None  # each shard answers, or says what failed
        # one part for all: the first shard's answer, the others' None (:func:`.fanout.merge_parts`)
        return GroupAnswer({a: part if k == 0 else None for k, a in enumerate(aliases)})

    async def _each(self, method: str, aliases: list[str], deadline: float, *args: Any) -> Any:
        """``method`` of each of ``aliases``' holders, each on a thread of its own."""
        loop = asyncio.get_running_loop()
        errors: dict[str, str] = {}
        running: dict[str, asyncio.Future[Any]] = {}
        for alias in aliases:
            if alias in self._stuck and not self._stuck[alias].done():
                errors[alias] = f"the shard {alias} has not finished an earlier call yet"
                continue  # one thread per shard at most, however long it hangs
            # a part's symbols are keyed once it is cut (below): most candidates go
            call = getattr(self.holders[alias], "unkeyed_part" if method == "part" else method)
            running[alias] = loop.run_in_executor(self._pool, call, *args)
        if running:
            await asyncio.wait(running.values(), timeout=deadline)
        answers: dict[str, Any] = {}
        late: list[str] = []
        for alias, future in running.items():
            if not future.done():
                late.append(alias)
                self._stuck[alias] = future
                future.add_done_callback(_retrieved)  # its thread finishes on its own
            elif (exc := future.exception()) is not None:
                errors[alias] = str(exc) or type(exc).__name__
            else:
                answers[alias] = future.result()
        if method == "part" and answers:  # only what can reach the fused answer leaves
            answers = _cut(args[0], [a for a in aliases if a in answers], answers)
        return GroupAnswer(answers, errors, tuple(late))


def packed_call(method: str, aliases: list[str], deadline: float, *args: Any) -> bytes:
    """The arguments of :meth:`ShardGroup.call`."""
    return pickle.dumps((method, aliases, deadline, args), protocol=pickle.HIGHEST_PROTOCOL)


def _cut(request: Any, arrived: list[str], answers: dict[str, Any]) -> dict[str, Any]:
    """The shards' parts (each with what keys its symbols) cut to the candidates that can
    reach the fused answer, and those keyed."""
    cut = compacted(request, [answers[a][0] for a in arrived])
    return {a: answers[a][1].part(part) for a, part in zip(arrived, cut, strict=True)}


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # read, so that asyncio does not log it as never retrieved


class Shared:
    """A group's answer on its way (pickled by :meth:`ShardGroup.call`), read once by
    each of its members."""

    def __init__(self, pending: Pending[bytes]) -> None:
        self.pending = pending
        self.answer: GroupAnswer | None = None

    def result(self, timeout: float | None) -> GroupAnswer:
        if self.answer is None:
            answer = pickle.loads(self.pending.result(timeout=timeout))
            if not isinstance(answer, GroupAnswer):
                raise TypeError(f"a shard group answered {type(answer).__name__}")
            self.answer = answer
        return self.answer


class Member:
    """One shard's answer within its group's (a :class:`.fanout.Pending`)."""

    def __init__(self, shared: Shared, alias: str) -> None:
        self.shared = shared
        self.alias = alias

    def result(self, timeout: float | None = None) -> Any:
        answer = self.shared.result(timeout)
        if self.alias in answer.late:
            raise TimeoutError(self.alias)
        if self.alias in answer.errors:
            raise ShardFailed(answer.errors[self.alias])
        return answer.answers[self.alias]
