"""symfuse ranking: channels, fusion and modes; the search contract is in ``ranking.api``."""

from __future__ import annotations


def available_channels() -> dict[str, bool]:
    """Which ranking channels can run: all of them, offline (the similarity model is built in)."""
    from symfuse.ranking.request import Channel

    return {channel.value: True for channel in Channel}
