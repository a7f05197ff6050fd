"""The ranking layer: every answer read from an index, behind one door.

Front ends import only :mod:`.api` and :mod:`.query` (an import-linter contract). Behind
them, by job: ``search/`` (the pipeline), ``channels/``, ``fusion/``, ``prepared/`` (the
ranking structures), ``graph/``, ``analysis/``, ``text/``, ``history/`` and ``shards/``.
May import the indexer; never a front end or a protocol library.
"""

from __future__ import annotations


def available_channels() -> dict[str, bool]:
    """Which ranking channels can run: all of them offline (the similarity model is built
    in), but the neural one only with the ``symfuse[semantic]`` extra and its model."""
    from symfuse.ranking.channels.neural.model import available, find_model
    from symfuse.ranking.query.search_request import Channel

    usable = {channel.value: True for channel in Channel}
    usable[Channel.NEURAL.value] = available() and find_model() is not None
    return usable
