"""Running the channels of a ranked search, as the plan of the query's shape says.

:func:`run_channels` ranks the candidates of every channel the request asks for (lexical,
identity, fuzzy when a name may be misspelt, similarity, neural, structural) into a
:class:`ChannelRun`, the input of fusion (:func:`symfuse.ranking.search.pipeline.fused_answer`).
A dotted query also finds what an import would name (:func:`with_import_paths`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.ranking.channels import fuzzy, identity, lexical, similarity, structural
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.channels.tokens import is_identifier_shaped
from symfuse.ranking.channels.topk import Ranking, distinct
from symfuse.ranking.fusion.tuning import TUNING
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.query.search_request import (
    Channel,
    FusionWeights,
    SearchRequest,
    SemanticMode,
)
from symfuse.ranking.search.cancel import checkpoint
from symfuse.ranking.search.plans import (
    DESCRIBED_KINDS,
    PLANS,
    UNDESCRIBED,
    Plan,
    Shape,
    classify,
    name_words,
    plan_weights,
)

NEAR_TYPO_LENGTH = TUNING.near_typo_length  # (ranking.shards.fusion decides as one index)


def _near_typo_edits(query: str) -> int:
    """How far a look for typos reaches when something already matched as typed."""
    return 2 if len(query.strip()) >= TUNING.near_typo_two_edits else 1


_DESCRIBED_CODE = tuple(k for k in DESCRIBED_KINDS if k is not Kind.REGION)  # definitions, files


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class ChannelRun:
    rankings: dict[Channel, Ranking]
    tiers: npt.NDArray[np.int8]
    weights: FusionWeights
    fuzzy_auto: bool = False  # fuzzy ran because nothing matched the name as typed
    near_typo: bool = False  # fuzzy ran for names one edit away, though something matched
    and_matches: int = 0  # the lexical ranking's first ones hold every required term
    spelled: bool = False  # the query's words spell names that exist: they lead (guard)
    known: int = 0  # the identity ranking's first ones, put first by names_lead


def run_channels(
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    depth: int,
    shape: Shape | None = None,
    vectors: similarity.Embedder | None = None,
) -> ChannelRun:
    """Every channel the request asks for, each ranking at most ``depth`` candidates,
    as the plan of the query's ``shape`` says (:data:`symfuse.ranking.search.plans.PLANS`).
    ``vectors`` (the semantic extra's, when ready) rank as the neural channel."""
    rankings: dict[Channel, Ranking] = {}
    shape = shape if shape is not None else classify(query)
    plan = PLANS[shape]
    weights = _semantic_weights(request, plan)
    text_mask = _text_mask(prepared, request, plan, mask)
    checkpoint()  # here and between channels: a caller that lost interest stops the search
    if request.semantic is SemanticMode.ONLY:
        return _semantic_only(prepared, query, plan, text_mask, depth, weights, vectors)
    beside = None  # its product over the vectors runs while the names and BM25 channels scan
    if request.semantic is not SemanticMode.OFF and weights.similarity > 0:
        beside = similarity.started_rank(prepared.similarity, query, text_mask, depth)
    lexical_result = lexical.rank(prepared.lexical, query, text_mask, depth, plan.bm25f)
    rankings[Channel.LEXICAL] = lexical_result.ranking
    checkpoint()
    rankings[Channel.IDENTITY], tiers = _names(prepared, query, plan, mask, depth)
    nothing_matched = not len(rankings[Channel.IDENTITY]) and not lexical_result.and_matches
    fuzzy_auto, near_typo = _typo_looks(request, query, tiers, nothing_matched)
    if request.fuzzy or fuzzy_auto or near_typo:
        typos = _typos(prepared, request, query, mask, depth, near_typo)
        if len(typos) or not near_typo:  # a look one edit away that found nothing is no run
            rankings[Channel.FUZZY] = typos
    if beside is not None:
        rankings[Channel.SIMILARITY] = beside()
    if vectors is not None and plan.described and weights.neural > 0:  # None: semantic off
        checkpoint()
        rankings[Channel.NEURAL] = similarity.rank(vectors, query, text_mask, depth)
    checkpoint()
    if request.fusion and weights.structural > 0:
        found = [r.positions for r in rankings.values() if len(r)]
        if found:
            rankings[Channel.STRUCTURAL] = structural.rank(prepared.pagerank, np.concatenate(found))
    and_matches = lexical_result.and_matches
    return ChannelRun(rankings, tiers, weights, fuzzy_auto, near_typo, and_matches)


def _text_mask(
    prepared: Prepared,
    request: SearchRequest,
    plan: Plan,
    mask: npt.NDArray[np.bool_] | None,
) -> npt.NDArray[np.bool_] | None:
    """What the text channels rank: a described behaviour is looked for among callables
    and types, regions only where the plan ranks them (unless a kind is asked)."""
    if request.kind:
        return mask
    kinds: npt.NDArray[np.bool_] | None
    if plan.described:
        wanted = DESCRIBED_KINDS if plan.regions else _DESCRIBED_CODE
        kinds = prepared.filters.kind_mask(wanted)  # these kinds alone, none a filter covers
        for language, undescribed in UNDESCRIBED.items():
            marked = prepared.filters.language_kinds(language, undescribed)
            if marked is not None:
                kinds &= ~marked
    elif not plan.regions:
        kinds = prepared.filters.regions_out()
    else:
        return mask
    if kinds is None:
        return mask
    return kinds if mask is None else mask & kinds


def _semantic_only(
    prepared: Prepared,
    query: str,
    plan: Plan,
    text_mask: npt.NDArray[np.bool_] | None,
    depth: int,
    weights: FusionWeights,
    vectors: similarity.Embedder | None,
) -> ChannelRun:
    """``semantic: only``: the similarity channel, and the neural one for prose."""
    rankings = {Channel.SIMILARITY: similarity.rank(prepared.similarity, query, text_mask, depth)}
    if vectors is not None and plan.described:  # the extra's vectors, once they are ready
        rankings[Channel.NEURAL] = similarity.rank(vectors, query, text_mask, depth)
    return ChannelRun(rankings, np.full(prepared.size, MatchTier.NONE, np.int8), weights)


def _typo_looks(
    request: SearchRequest, query: str, tiers: npt.NDArray[np.int8], nothing_matched: bool
) -> tuple[bool, bool]:
    """Whether fuzzy runs on its own (nothing matched an identifier as typed), and whether
    it looks for names one edit away though something matched."""
    identifier = is_identifier_shaped(query)
    fuzzy_auto = request.fuzzy is None and nothing_matched and identifier
    # A typo can still match something as typed ("or_equals" is a substring of names):
    # then names one edit away join as a fuzzy ranking, unless the name exists as typed.
    near_typo = (
        request.fuzzy is None
        and not fuzzy_auto
        and identifier
        and len(query.strip()) >= NEAR_TYPO_LENGTH
        and not bool(np.any(tiers <= MatchTier.CASE_INSENSITIVE))
    )
    return fuzzy_auto, near_typo


def near_typos(
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    depth: int,
) -> Ranking:
    """The fuzzy channel's look for names one edit away (two for a long name), which runs
    when something matched but no name exactly: a shard where nothing matched looks
    for it too when another shard's matches make the corpus look (ranking.shards.part)."""
    return _typos(prepared, request, query, mask, depth, near_typo=True)


def _typos(
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    depth: int,
    near_typo: bool,
) -> Ranking:
    """The fuzzy channel: names a few edits from the query (fewer for a near-typo look)."""
    checkpoint()
    return fuzzy.rank(
        prepared.trigrams,
        query,
        mask,
        depth,
        threshold=request.fuzzy_threshold,
        max_edit_distance=min(_near_typo_edits(query), request.max_edit_distance)
        if near_typo
        else request.max_edit_distance,
    )


def _names(
    prepared: Prepared,
    query: str,
    plan: Plan,
    mask: npt.NDArray[np.bool_] | None,
    depth: int,
) -> tuple[Ranking, npt.NDArray[np.int8]]:
    """The identity channel: the whole query as a name, or for prose its code tokens one
    at a time (then no symbol has a match tier: prose never lifts a name)."""
    if plan.word_names:
        words = name_words(query)
        ranking = identity.rank_words(prepared.names, words, prepared.pagerank, mask, depth)
        return ranking, np.full(prepared.size, MatchTier.NONE, dtype=np.int8)
    return identity.rank(prepared.names, query, prepared.pagerank, mask, depth)


def _semantic_weights(request: SearchRequest, plan: Plan) -> FusionWeights:
    """Apply ``semantic_weight`` s: similarity's weight times 2s, the others' times 2(1 - s).

    A request with the default weights gets its shape's (:func:`plan_weights`).
    """
    s = request.semantic_weight
    w = request.fusion_weights
    if w == FusionWeights():
        w = plan_weights(plan, request.semantic)
        if s != 0.5 and w.similarity == 0:  # a shape that leaves it out, asked to weigh it
            w = replace(w, similarity=FusionWeights().similarity)
    if s == 0.5:
        return w
    return FusionWeights(
        lexical=w.lexical * 2 * (1 - s),
        structural=w.structural * 2 * (1 - s),
        similarity=w.similarity * 2 * s,
        identity=w.identity * 2 * (1 - s),
        fuzzy=w.fuzzy * 2 * (1 - s),
        neural=w.neural * 2 * s,
    )


def with_import_paths(
    index: Index,
    prepared: Prepared,
    run: ChannelRun,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
) -> ChannelRun:
    """A dotted query that names a definition as an import would (``models.CharField``
    for django.db.models.fields.CharField, re-exported by django.db.models): those
    definitions join the identity channel first, at the fqn-suffix tier, which a
    dotted query raises to the exact-name guard."""
    from symfuse.indexer.link.resolve import Resolver

    found = [index.position[s.symbol_id] for s in Resolver(index).importable(query)]
    found = [at for at in found if mask is None or mask[at]]
    if not found:
        return run
    known = np.asarray(found, dtype=np.int64)
    known = known[np.argsort(-prepared.pagerank[known], kind="stable")]
    return names_lead(prepared, run, known, MatchTier.FQN_SUFFIX, run.spelled)


_WORDS = re.compile(r"[a-z][a-z0-9]*(?: [a-z][a-z0-9]*){1,4}")
_PHRASE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
PHRASE_WORDS = 5  # the longest run of a sentence's words read as one name


def spellings(query: str) -> tuple[str, ...]:
    """The names 2 to 5 lower-case words spell as written: ``call on close`` ->
    ``call_on_close``, ``callOnClose``, ``CallOnClose``, ``CALL_ON_CLOSE`` (nothing for
    anything else)."""
    text = " ".join(query.split())
    if not _WORDS.fullmatch(text):
        return ()
    words = text.split(" ")
    pascal = "".join(w[:1].upper() + w[1:] for w in words)
    snake = "_".join(words)
    return (snake, words[0] + pascal[len(words[0]) :], pascal, snake.upper())


def with_spelled_names(
    prepared: Prepared,
    run: ChannelRun,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
) -> ChannelRun:
    """Lower-case words whose join is an existing name (``remote protocol error`` for
    RemoteProtocolError): those definitions join the identity channel first and the
    exact-name guard puts them first (``spelled``): a spelling as written (snake, camel,
    Pascal, upper snake) as an exact name, any other name that is the words joined once
    case and separators are dropped (``IPAddressField``, ``_add_view``) just after."""
    spelled = spellings(query)
    if not spelled:
        return with_phrase_names(prepared, run, query, mask)
    names = prepared.names
    exact = distinct(np.concatenate([names.names.equal(s) for s in spelled]))
    wholes = distinct(names.wholes.equal("".join(query.split())))
    joined = np.setdiff1d(wholes, exact, assume_unique=True)  # (np.unique as distinct)
    if mask is not None:
        exact, joined = exact[mask[exact]], joined[mask[joined]]
    if not len(exact) and not len(joined):
        return run
    tiers = run.tiers.copy()
    tiers[exact] = np.int8(MatchTier.EXACT)
    tiers[joined] = np.minimum(tiers[joined], np.int8(MatchTier.CASE_INSENSITIVE))
    ranks = [
        found[np.argsort(-prepared.pagerank[found], kind="stable")] for found in (exact, joined)
    ]
    known = np.concatenate(ranks).astype(np.int64)
    return replace(identity_first(prepared, run, known), tiers=tiers, spelled=True)


def with_phrase_names(
    prepared: Prepared,
    run: ChannelRun,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
) -> ChannelRun:
    """Consecutive words of a sentence whose join is a name (``guess content type of an
    uploaded file`` for ``_guess_content_type``, ``a bytes-per-second limit`` for
    ``bytesPerSecond``): those definitions join the identity channel first, longer runs
    before shorter ones, without the exact-name guard (a phrase is not the question)."""
    words = _PHRASE_WORD.findall(query)
    names = prepared.names
    found = [
        names.wholes.equal("".join(words[i : i + n]).lower())
        for n in range(PHRASE_WORDS, 1, -1)
        for i in range(len(words) - n + 1)
    ]
    firsts = dict.fromkeys(int(p) for hit in found for p in hit.tolist())
    known = np.fromiter(firsts, dtype=np.int64, count=len(firsts))
    if mask is not None:
        known = known[mask[known]]
    return identity_first(prepared, run, known) if len(known) else run


def names_lead(
    prepared: Prepared,
    run: ChannelRun,
    known: npt.NDArray[np.int64],
    tier: MatchTier,
    spelled: bool,
) -> ChannelRun:
    """``run`` with ``known`` first in the identity channel and matched at ``tier`` or
    better; ``spelled``: the exact-name guard puts the query's names first."""
    tiers = run.tiers.copy()
    tiers[known] = np.minimum(tiers[known], np.int8(tier))
    return replace(identity_first(prepared, run, known), tiers=tiers, spelled=spelled)


def identity_first(prepared: Prepared, run: ChannelRun, known: npt.NDArray[np.int64]) -> ChannelRun:
    """``run`` whose identity ranking starts with ``known`` (the structural channel, which
    re-ranks the others' candidates, made again over them)."""
    identity = run.rankings.get(Channel.IDENTITY, Ranking.empty())
    rest = ~np.isin(identity.positions, known)
    # the ones put first before and not again now still lead the rest
    first = len(known) + int(rest[: run.known].sum())
    top = float(identity.scores.max()) if len(identity) else 1.0
    rankings = dict(run.rankings)
    rankings[Channel.IDENTITY] = Ranking(
        np.concatenate([known, identity.positions[rest]]),
        np.concatenate([np.full(len(known), top), identity.scores[rest]]),
        np.concatenate([known, identity.matched]),
    )
    if Channel.STRUCTURAL in rankings:  # it re-ranks the other channels' candidates
        lists = [r.positions for c, r in rankings.items() if c is not Channel.STRUCTURAL]
        rankings[Channel.STRUCTURAL] = structural.rank(prepared.pagerank, np.concatenate(lists))
    return replace(run, rankings=rankings, known=first)


def truncated(
    run: ChannelRun, pagerank: npt.NDArray[np.float64], depth: int | Mapping[Channel, int]
) -> ChannelRun:
    """``run`` as if each channel had ranked ``depth`` candidates (one number, or one per
    channel; their lists' prefixes; the structural channel re-ranks the shorter lists'
    candidates)."""
    rankings: dict[Channel, Ranking] = {}
    for c, r in run.rankings.items():
        if c is not Channel.STRUCTURAL:
            cut = depth if isinstance(depth, int) else depth[c]
            rankings[c] = Ranking(r.positions[:cut], r.scores[:cut])
    found = [r.positions for r in rankings.values() if len(r)]
    if Channel.STRUCTURAL in run.rankings and found:
        rankings[Channel.STRUCTURAL] = structural.rank(pagerank, np.concatenate(found))
    return replace(run, rankings=rankings)


def matched_count(run: ChannelRun, size: int) -> int:
    """How many symbols any channel matched, ranked deep enough or not: the items the
    pages of the answer are drawn from, whatever the page (the structural channel only
    re-ranks the others' finds)."""
    hit = np.zeros(size, dtype=np.bool_)
    for channel, ranking in run.rankings.items():
        if channel is not Channel.STRUCTURAL:
            hit[ranking.matched] = True
    return int(np.count_nonzero(hit))
