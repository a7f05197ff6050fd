"""What fusion's later steps read of the ranked symbols (:class:`Ranked`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Symbol
from symfuse.ranking.channels.translation import Translation
from symfuse.ranking.search.channel_run import ChannelRun
from symfuse.ranking.search.file_text import TextRows
from symfuse.ranking.search.filters import SymbolRoles


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Ranked:
    """What fusion's later steps read of the ranked symbols, by position: one index's
    (:func:`~symfuse.ranking.search.pipeline.search`), or the candidates of many shards
    (:mod:`symfuse.ranking.shards.fusion`)."""

    symbols: Sequence[Symbol]
    roles: SymbolRoles
    pagerank: npt.NDArray[np.float64]
    levels: Callable[[ChannelRun, npt.NDArray[np.int64]], npt.NDArray[np.int8]]
    translation: Translation | None = None  # one index's: shards' candidates have none
    term_ids: Mapping[str, int] = field(default_factory=dict)
    text: TextRows | None = None  # a question: the pieces of text that vote for files
    named_files: tuple[int, ...] = ()  # a name: the units of the files it is the stem of
    verbatim: tuple[int, ...] = ()  # a pasted message: the definitions that write it
