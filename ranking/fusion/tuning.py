"""The constants that shape a ranked answer, in one object, each with why it has its value.

:data:`TUNING` holds the default fusion weights of the query shapes, fusion's rank
constant, the demotion factors, the exact-name guard's and the learned re-ranking's
constants. The per-channel weights a request may set are :class:`FusionWeights`
(its defaults are :attr:`Tuning.names`); the re-ranking's learned coefficients stay
with the features they weigh (:data:`symfuse.ranking.fusion.rerank.WEIGHTS`). What was
measured for each value is in tests/bench/README.md and the commits that set it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from symfuse.ranking.query.search_request import FusionWeights


@dataclass(frozen=True, slots=True)
class Tuning:
    """The ranking's constants; every score change they drive shows with ``fusion_debug``."""

    rrf_k: int = 60  # RRF's rank constant (Cormack et al.): no one channel's top place decides
    # identifiers, dotted names, paths, keywords: the request's defaults, names and BM25 lead
    names: FusionWeights = field(default_factory=FusionWeights)
    # a bare identifier: the same without similarity, whose paraphrases reorder names the
    # identity and lexical channels already found (name sets the same or higher without
    # it) at more than half of a name query's CPU
    identifier: FusionWeights = field(default_factory=lambda: FusionWeights(similarity=0.0))
    # prose: BM25F over heads and bodies leads, similarity adds paraphrases, names say little
    prose: FusionWeights = field(default_factory=FusionWeights.sentence)
    neural_on: float = 0.2  # neural's prose weight with semantic: on (commit-like queries lose)
    side_code_share: float = 0.3  # tests and examples after the code they call, still found
    document_share: float = 0.3  # headings and keys after code of their name (chosen, not mined)
    typo_guard_distance: int = 2  # nothing matched as typed: fuzzy hits this close lead
    near_typo_length: int = 6  # an identifier this long also looks one edit away: a typo may match
    near_typo_two_edits: int = 8  # ... and two from this length ("update_idx" -> update_index)
    rerank_candidates: int = 100  # first answers the learned re-ranking re-orders, as in training
    # an undocumented top-level definition both text channels rank this high keeps its place
    # against the re-ranking, which weighs a missing doc and a short body against it
    rerank_agreed: int = 2


TUNING = Tuning()
