"""File units in a ranked answer: a file that matches lifts its best definition.

A file unit (:mod:`symfuse.indexer.extract.units`) matches on what a whole file says:
its path, its leading comment, its top-level names and code. That finds the right file
for "how is Y wired", but a whole file is a poor answer when one of its definitions
ranks too: the reader wants the place, not 500 lines. So file units are ranked apart
from definitions (:func:`split_units`: in every channel's list a unit would push the
definitions below it down a place, and they would lose their share of the fusion), and
fused among themselves; then (:func:`files_resolved`) each of the best file units adds a
share of its score to the best-ranked definition of its file (the file's coherence
lifts it), and the unit of a file that defines no routine or type joins the answer with
a share of its score: the file is the answer (top-level code, macro invocations,
re-exports, route tables, configuration). Asked for by kind (``kind: file``), file units
rank like definitions.

Regions (the code outside every definition, in pieces) are units too, ranked apart the
same way: in the channels' lists beside the definitions they lowered the findability set's
tune half 0.788 -> 0.782 and moved definitions the mined commit subjects look for. The
best region of a file joins the answer, with the same share, when the words find it
before every definition of its file (its score against theirs without PageRank, which a
region has none of), in place of its file's unit; else it leaves the answer as it was.
Only prose and keyword queries rank regions (:attr:`Plan.regions`): a name asked for,
even inside a sentence, is a definition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels import structural
from symfuse.ranking.channels.topk import Ranking, distinct
from symfuse.ranking.fusion.rrf import Fused, K, normalized_weights
from symfuse.ranking.query.responses import Adjustment, Change
from symfuse.ranking.query.search_request import Channel, SearchRequest
from symfuse.ranking.search.channel_run import ChannelRun
from symfuse.ranking.search.plans import described

# The file units that count (the best by fused score), what a file unit's score adds to
# its file's best definition, and the share of it a file unit keeps when its file has no
# definition (prose and keyword queries; names find definitions). Measured on the
# findability set's tune half and four repositories of the mined commit subjects
# (tests/bench/findability_bench.py, nl_bench.py --repos black,gin,axios,jq): lift 0
# 0.719 / 0.586 hit@10, 0.1 0.722 / 0.588, 0.15 0.722 / 0.584; depth 5 to 50 within
# 0.003. A unit standing in for any file none of whose definitions ranked lowered the
# mined set (0.581); units in the channels' lists beside the definitions lifted the
# findability set to 0.729 and lowered the mined set 2 points.
FILE_DEPTH = 10
REGION_DEPTH = 10
LIFT = 0.1
STANDING = 0.8
# A file unit the lexical channel ranks first of every symbol, and the similarity channel
# in its first LEAD_SIMILAR, lifts its best definition by LEAD times its score (to the top,
# at most) rather than LIFT: the question's words find that file before any definition
# (Phoenix.Token's module doc, under the Mix tasks' long documented functions). The
# lexical place alone also lifted short files that repeat a word (commit subjects' targets
# moved down); both channels' agreement keeps to files the question is about.
LEAD = 0.5
LEAD_SIMILAR = 10


def split_units(
    run: ChannelRun,
    units: npt.NDArray[np.bool_],
    pagerank: npt.NDArray[np.float64],
    depth: int,
    reach: int,
    symbols: Sequence[Symbol],
) -> tuple[ChannelRun, Fused | None, int]:
    """``run`` without file units (each channel's list cut to ``depth`` definitions, the
    structural channel re-ranking what is left; the lists' ``matched`` no longer held: only
    ``matched_count``, before, reads them); the file units fused as they ranked
    among every symbol (a unit the channels rank below many definitions scores low), by
    their places within the first ``reach`` of each list only (what the lists of every
    page length hold: a longer page's deeper lists would add to a unit's score and move
    the head every page shares): :data:`FILE_DEPTH` file units and the best region of
    each of :data:`REGION_DEPTH` files; and how many units any channel matched.
    ``units`` says which of ``symbols`` are units."""
    # (no early way out when no unit is among them: each list is cut to ``depth`` all the
    # same, as over shards whose candidates happen to hold no unit; ranking.shards)
    kept: dict[Channel, Ranking] = {}
    ranks: dict[Channel, dict[int, int]] = {}
    matched: list[npt.NDArray[np.int64]] = []
    for channel, ranking in run.rankings.items():
        if channel is Channel.STRUCTURAL:
            continue
        unit = units[ranking.positions]
        found = ranking.matched
        matched.append(found[units[found]])
        kept[channel] = Ranking(ranking.positions[~unit][:depth], ranking.scores[~unit][:depth])
        at = np.flatnonzero(unit[:reach])
        ranks[channel] = dict(zip(ranking.positions[at].tolist(), (at + 1).tolist(), strict=True))
    lists = [r.positions for r in kept.values() if len(r)]
    if Channel.STRUCTURAL in run.rankings and lists:
        kept[Channel.STRUCTURAL] = structural.rank(pagerank, np.concatenate(lists))
    count = int(distinct(np.concatenate(matched)).shape[0]) if matched else 0
    ran = [c for c, r in run.rankings.items() if len(r)]
    files = _fused_files(ranks, normalized_weights(run.weights, ran), symbols)
    return replace(run, rankings=kept), files, count


def head_depths(
    run: ChannelRun, units: npt.NDArray[np.bool_], reach: int, head: int
) -> dict[Channel, int]:
    """Per channel of ``run`` (file units still in its list), how many definitions the head
    every page length shares holds: those among the first ``reach`` places, at most
    ``head``. Units take places in a list, so a short page's list may hold fewer than
    ``head`` definitions; a longer page's deeper list must not bring more into the head."""
    return {
        channel: min(head, int(np.count_nonzero(~units[ranking.positions[:reach]])))
        for channel, ranking in run.rankings.items()
        if channel is not Channel.STRUCTURAL
    }


def _fused_files(
    ranks: dict[Channel, dict[int, int]], shares: dict[Channel, float], symbols: Sequence[Symbol]
) -> Fused | None:
    """Units by weighted reciprocal rank over their ranks among every symbol (the scores
    fusion would give them), best first: :data:`FILE_DEPTH` file units, and the best
    region of each of :data:`REGION_DEPTH` files."""
    positions = np.asarray(sorted({p for by in ranks.values() for p in by}), dtype=np.int64)
    if not positions.shape[0]:
        return None
    rank_of = {
        c: np.asarray([by.get(p, 0) for p in positions.tolist()], np.int64)
        for c, by in ranks.items()
    }
    contributions = {
        c: np.where(r > 0, shares.get(c, 0.0) * (K + 1) / (K + np.maximum(r, 1)), 0.0)
        for c, r in rank_of.items()
    }
    scores = np.sum(list(contributions.values()), axis=0)
    order = _kept(np.lexsort((positions, -scores)), positions, symbols)
    return Fused(positions, scores, rank_of, contributions, shares).reorder(order, scores[order])


def _kept(
    order: npt.NDArray[np.intp], positions: npt.NDArray[np.int64], symbols: Sequence[Symbol]
) -> npt.NDArray[np.int64]:
    """``order`` (best first) kept to its first :data:`FILE_DEPTH` file units and the first
    region of each of :data:`REGION_DEPTH` files."""
    files: list[int] = []
    regions: dict[str, int] = {}
    for i in order.tolist():
        symbol = symbols[int(positions[i])]
        if symbol.kind is not Kind.REGION:
            if len(files) < FILE_DEPTH:
                files.append(i)
        elif len(regions) < REGION_DEPTH:
            regions.setdefault(symbol.file, i)
        if len(files) == FILE_DEPTH and len(regions) == REGION_DEPTH:
            break
    kept = set(files) | set(regions.values())
    return np.asarray([i for i in order.tolist() if i in kept], dtype=np.int64)


def files_resolved(
    fused: Fused,
    files: Fused | None,
    symbols: Sequence[Symbol],
    head: int,
    lift: float = LIFT,
    standing: float = STANDING,
    lead: float = LEAD,
) -> tuple[Fused, int]:
    """``fused`` (definitions) with the file units of ``files`` (fused apart) folded in:
    each lifts by ``lift`` times its score (``lead`` times: the one the words find first,
    :data:`LEAD`) the best definition of its file among the first ``head`` of ``fused``;
    the unit of a file that defines no routine or type joins with ``standing`` times its
    score, and so does a region that outranks its file's
    definitions there (in place of its file's unit). Also how many units joined.
    (Only the head: a page of any length shares it, see ``rrf.extended``.)"""
    if files is None or not len(files) or (not lift and not standing):
        return fused, 0
    best: dict[str, int] = {}  # file -> index of its best-ranked definition
    for i, p in enumerate(fused.positions[:head].tolist()):
        best.setdefault(symbols[p].file, i)
    scores = fused.scores.copy()
    top = float(scores.max()) if len(scores) else 1.0  # a lifted score stays within range
    lifts = _lifts(files, lift, lead)
    joining: list[int] = []  # indexes into files
    for i, p in enumerate(files.positions.tolist()):
        j = best.get(symbols[p].file)
        if symbols[p].kind is Kind.REGION:
            if standing and (j is None or files.scores[i] > _text_share(fused, j)):
                joining.append(i)  # the words find it before every definition of its file
            continue
        if j is not None:
            scores[j] = min(top, scores[j] + lifts[i] * files.scores[i])
        elif standing and not _describes(symbols, p):
            joining.append(i)
    regioned = {symbols[p].file for p in files.positions[joining] if symbols[p].kind is Kind.REGION}
    joining = [  # a file's region joins rather than the whole file
        i
        for i in joining
        if symbols[p := int(files.positions[i])].kind is Kind.REGION
        or symbols[p].file not in regioned
    ]
    lifted = fused
    if (scores != fused.scores).any():
        order = np.argsort(-scores, kind="stable").astype(np.int64)
        why = "its file's unit matches the query too"
        lifted = fused.adjusted(order, scores[order], Change.COHERENCE, why)
    if not joining:
        return lifted, 0
    which = np.asarray(joining, dtype=np.int64)
    return _joined(lifted, files, which, standing, symbols), len(joining)


def _lifts(files: Fused, lift: float, lead: float) -> npt.NDArray[np.float64]:
    """What each unit of ``files`` adds to its file's best definition, a point of its
    score: ``lead`` for the unit ranked first in the lexical channel and among the first
    :data:`LEAD_SIMILAR` in the similarity channel, ``lift`` for the others."""
    lifts = np.full(len(files), lift)
    lexical, similar = files.ranks.get(Channel.LEXICAL), files.ranks.get(Channel.SIMILARITY)
    if lead and lexical is not None and similar is not None:
        lifts[(lexical == 1) & (similar > 0) & (similar <= LEAD_SIMILAR)] = lead
    return lifts


def _describes(symbols: Sequence[Symbol], unit: int) -> bool:
    """Whether the file of the unit at ``unit`` defines a routine or a type (what prose
    finds; a file of constants, variables and calls is found as the file itself). A
    file's symbols come together, its unit last."""
    file = symbols[unit].file
    at = unit - 1
    while at >= 0 and symbols[at].file == file:
        if described(symbols[at]):
            return True
        at -= 1
    return False


def _joined(
    fused: Fused,
    files: Fused,
    which: npt.NDArray[np.int64],
    share: float,
    symbols: Sequence[Symbol],
) -> Fused:
    """``fused`` and the units ``which`` of ``files`` (scores times ``share``), in one
    list by score (a tie to the definition)."""
    scores = np.concatenate([fused.scores, share * files.scores[which]])
    positions = np.concatenate([fused.positions, files.positions[which]])
    channels = list(dict.fromkeys([*fused.ranks, *files.ranks]))
    size, extra = len(fused), which.shape[0]
    notes = fused.notes
    if notes is not None:
        own = files.notes or ((),) * len(files)  # the unit's own (a side-code demotion)
        joined = tuple(
            (*own[i], Adjustment(Change.COHERENCE, _why(symbols[p]), share))
            for i, p in zip(which.tolist(), files.positions[which].tolist(), strict=True)
        )
        notes = (*notes, *joined)
    both = Fused(
        positions,
        scores,
        {
            c: np.concatenate(
                [
                    fused.ranks.get(c, np.zeros(size, np.int64)),
                    files.ranks.get(c, np.zeros(len(files), np.int64))[which],
                ]
            )
            for c in channels
        },
        {
            c: np.concatenate(
                [
                    fused.contributions.get(c, np.zeros(size)),
                    files.contributions.get(c, np.zeros(len(files)))[which],
                ]
            )
            for c in channels
        },
        fused.weights,
        None
        if fused.rescored is None
        else np.concatenate([fused.rescored, np.zeros(extra, np.bool_)]),
        notes,
    )
    order = np.lexsort((np.arange(size + extra), -scores)).astype(np.int64)
    return both.reorder(order, scores[order])


def _text_share(fused: Fused, at: int) -> float:
    """What the channels but the structural one give item ``at`` of ``fused``: what a
    unit's score, which has no PageRank, compares with."""
    shares = fused.contributions
    return float(sum(share[at] for c, share in shares.items() if c is not Channel.STRUCTURAL))


def _why(unit: Symbol) -> str:
    if unit.kind is Kind.REGION:
        return "a region that outranks its file's definitions: the code the query describes"
    return "a file unit, none of whose definitions ranked: its file is the answer"


FILE_HITS = 3  # hits inside each file of a ``group_by: file`` answer


def file_page(
    fused: Fused, symbols: Sequence[Symbol], offset: int, limit: int
) -> tuple[npt.NDArray[np.int64], int]:
    """``group_by: file``: the places in ``fused`` of the page's hits, file by file (files
    in the order of their best hit, each with its first :data:`FILE_HITS` hits), and how
    many files the whole list reaches."""
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(fused.positions.tolist()):
        members = groups.setdefault(symbols[p].file, [])
        if len(members) < FILE_HITS:
            members.append(i)
    page = list(groups.values())[offset : offset + limit]
    return np.asarray([i for members in page for i in members], dtype=np.int64), len(groups)


def asks_for_files(request: SearchRequest) -> bool:
    """Whether the request's kind filter names units, files or regions (then they rank as
    any kind)."""
    return not Kind.UNITS.isdisjoint(request.kind)
