"""symfuse ranking: channels, fusion and modes; the search contract is in ``ranking.api``."""

from __future__ import annotations


def available_channels() -> dict[str, bool]:
    """Which ranking channels can run: all of them offline (the similarity model is built
    in), but the neural one only with the ``symfuse[semantic]`` extra and its model."""
    from symfuse.ranking.channels.neural.model import available, find_model
    from symfuse.ranking.query.search_request import Channel

    usable = {channel.value: True for channel in Channel}
    usable[Channel.NEURAL.value] = available() and find_model() is not None
    return usable
