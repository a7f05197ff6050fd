"""Lexical channel: the tokenizer, BM25 against a textbook computation, AND-first/OR-fallback."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from scipy import sparse

from symfuse.indexer.model import Kind
from symfuse.ranking.channels import kept as kept_module
from symfuse.ranking.channels import lexical
from symfuse.ranking.channels.documents import FIELD_WEIGHTS, Field, build_documents, symbol_fields
from symfuse.ranking.channels.inherited_docs import (
    CALLEE_DOC,
    CALLER_DOC,
    call_docs,
    with_inherited,
)
from symfuse.ranking.channels.lexical import QueryTerms
from symfuse.ranking.channels.tokens import identifier_tokens, split_identifier, stem, text_tokens
from symfuse.ranking.prepared.columns import Columns
from tests.support.symbols import make_symbol, synthetic_symbol


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("getUserById", ["get", "user", "by", "id"]),
        ("get_user_by_id", ["get", "user", "by", "id"]),
        ("HTTPServerError", ["http", "server", "error"]),
        ("utf8Decode", ["utf", "8", "decode"]),
        ("__init__", ["init"]),
        ("XMLHttpRequest2", ["xml", "http", "request", "2"]),
    ],
)
def test_split_identifier(name: str, parts: list[str]) -> None:
    assert split_identifier(name) == parts


def test_identifier_tokens_keep_the_whole_identifier() -> None:
    assert identifier_tokens("getUserById") == ["get", "user", "by", "id", "getuserbyid"]
    assert identifier_tokens("load") == ["load"]


def test_stemmer_folds_plurals_ing_ed_and_a_final_e() -> None:
    words = ["queries", "classes", "users", "address", "status", "is", "utf8"]
    assert [stem(w) for w in words] == [
        "query",
        "class",
        "user",
        "address",
        "status",
        "is",
        "utf8",
    ]
    forms = ["cache", "caches", "cached", "caching"]
    assert {stem(w) for w in forms} == {"cach"}
    assert {stem(w) for w in ["run", "running"]} == {"run"}
    assert {stem(w) for w in ["copy", "copied", "copies"]} == {"copy"}
    assert {stem(w) for w in ["populate", "populated", "populates"]} == {"populat"}


def test_query_terms_drop_stop_words_and_make_whole_forms_optional() -> None:
    terms = QueryTerms.parse("get the user_by_id")
    assert terms.required == ("get", "user", "id")
    assert terms.optional == ("userbyid",)
    assert QueryTerms.parse("the of").required == ("the", "of")


def textbook_bm25(docs: list[list[str]], query: list[str], k1: float, b: float) -> list[float]:
    """Okapi BM25 written out term by term (Robertson & Zaragoza 2009, Lucene idf)."""
    n = len(docs)
    avgdl = sum(len(d) for d in docs) / n
    scores = []
    for doc in docs:
        counts = Counter(doc)
        total = 0.0
        for term in query:
            df = sum(1 for d in docs if term in d)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            f = counts[term]
            total += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len(doc) / avgdl)) if f else 0
        scores.append(total)
    return scores


def test_bm25_weights_match_the_textbook_formula() -> None:
    docs = [
        ["user", "get", "user", "id"],
        ["order", "total", "price"],
        ["user", "email", "send", "mail", "welcome"],
        ["get", "order"],
        ["price", "tax", "price", "rate", "unit", "price"],
    ]
    vocabulary = sorted({t for d in docs for t in d})
    ids = {t: i for i, t in enumerate(vocabulary)}
    rows, cols = zip(*[(r, ids[t]) for r, d in enumerate(docs) for t in d], strict=True)
    tf = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(docs), len(ids)))
    tf.sum_duplicates()
    length = np.asarray([len(d) for d in docs], dtype=np.float64)
    df = np.bincount(tf.indices, minlength=tf.shape[1]).astype(np.float64)
    index = lexical.LexicalIndex(
        head=Columns.of(lexical.normalized(tf, length, 0.75)),
        body=Columns.of(sparse.csc_matrix(tf.shape)),
        body_length=np.zeros(len(docs)),
        idf=lexical.idf(len(docs), df),
        term_ids=ids,
    )
    for query in (["user"], ["price", "order"], ["get", "user", "id"], ["missing"]):
        ours, _ = index.scores(lexical.QueryTerms(tuple(query)))
        # the normalized counts are stored as float32 (sparse_rows.VALUES): 7 digits
        assert ours == pytest.approx(textbook_bm25(docs, query, 1.2, 0.75), rel=1e-6)


def test_field_weighted_documents_score_like_bm25_over_weighted_counts() -> None:
    symbols = [
        make_symbol("send_mail", doc="Deliver a message to the admins."),
        make_symbol("mail_admins", doc="Send an e-mail to every administrator."),
        make_symbol("render", doc="Render a template.", file="pkg/mail/render.py"),
    ]
    documents = build_documents(symbols)
    index = lexical.LexicalIndex.build(documents)
    # The textbook computation over the same weighted term counts.
    weighted: list[Counter[str]] = []
    for s in symbols:
        counts: Counter[str] = Counter()
        for f, text in symbol_fields(s).items():
            tokens = identifier_tokens(text) if f is Field.NAME else text_tokens(text)
            for t in tokens:
                counts[t] += FIELD_WEIGHTS[f]
        weighted.append(counts)
    n = len(symbols)
    lengths = [sum(c.values()) for c in weighted]
    avgdl = sum(lengths) / n
    for term in ("mail", "admin", "render", "send"):
        df = sum(1 for c in weighted if c[term])
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        expected = [
            idf * c[term] * 2.2 / (c[term] + 1.2 * (0.25 + 0.75 * dl / avgdl)) if c[term] else 0
            for c, dl in zip(weighted, lengths, strict=True)
        ]
        scores, _ = index.scores(QueryTerms((term,)))
        assert scores == pytest.approx(expected, rel=1e-6), term  # float32 counts: 7 digits


def test_a_word_in_the_name_outweighs_the_same_word_in_the_doc() -> None:
    symbols = [
        make_symbol("helper", doc="Parse the payment payload."),
        make_symbol("payment", doc="A helper."),
    ]
    index = lexical.LexicalIndex.build(build_documents(symbols))
    result = lexical.rank(index, "payment", None, 10)
    assert [symbols[i].name for i in result.ranking.positions] == ["payment", "helper"]


def test_and_first_then_or_fallback() -> None:
    symbols = [
        make_symbol("send_mail"),
        make_symbol("send_welcome_email"),
        make_symbol("mail_admins"),
        make_symbol("unrelated"),
    ]
    index = lexical.LexicalIndex.build(build_documents(symbols))
    both = lexical.rank(index, "send mail", None, 10)
    assert both.and_matches == 1
    assert symbols[int(both.ranking.positions[0])].name == "send_mail"
    assert {symbols[int(i)].name for i in both.ranking.positions} == {
        "send_mail",
        "send_welcome_email",
        "mail_admins",
    }
    # No symbol has every word: OR matches still answer, flagged as such.
    fallback = lexical.rank(index, "send mail nowhere", None, 10)
    assert fallback.and_matches == 0
    assert symbols[int(fallback.ranking.positions[0])].name == "send_mail"


def test_prose_coordination_scales_by_the_share_of_terms_held() -> None:
    """Prose weighting: the sum times (held / required) ** coordination, checked against
    the plain sum; with AND-first off a strong partial match can lead a weak full one."""
    symbols = [
        make_symbol("render", doc="Render the page: page page page layout."),
        make_symbol("helper", doc="Render the page cache."),
    ]
    index = lexical.LexicalIndex.build(build_documents(symbols))
    terms = QueryTerms.parse("render page cache")
    plain = lexical.Bm25f(body=3.0, b_body=0.2)
    coordinated = lexical.Bm25f(body=3.0, b_body=0.2, coordination=0.5, and_first=False)
    raw, _ = index.scores(terms, plain)
    scaled, matched_all = index.scores(terms, coordinated)
    assert matched_all.tolist() == [False, True]
    assert scaled == pytest.approx(raw * np.array([(2 / 3) ** 0.5, 1.0]))
    first = lexical.rank(index, "render page cache", None, 10, plain).ranking.positions
    assert first.tolist()[0] == 1  # AND-first lifts the full match


def test_prose_leaves_filler_words_out_unless_nothing_else_is_left() -> None:
    symbols = [make_symbol("add_handler"), make_symbol("parse_header")]
    index = lexical.LexicalIndex.build(build_documents(symbols))
    prose = lexical.BODY_AWARE
    assert stem("fixes") in lexical.FILLER
    # "fix" and "add" are not asked for: only "header" is, so add_handler is no match.
    result = lexical.rank(index, "fix add header", None, 10, prose)
    assert result.ranking.positions.tolist() == [1]
    # Nothing but filler: the words are kept.
    alone = lexical.rank(index, "add", None, 10, prose)
    assert alone.ranking.positions.tolist() == [0]
    # Names weighting keeps them.
    names = lexical.rank(index, "fix add header", None, 10)
    assert sorted(names.ranking.positions.tolist()) == [0, 1]


def test_a_hyphenated_term_adds_its_acronym_at_a_share_of_a_word() -> None:
    """zod's "ahead-of-time compiler", gin's "X-Forwarded-For", nlohmann's
    "argument-dependent lookup": the code writes `aot`, `xff`, `adl`. The acronym is an
    optional term at ACRONYM_SHARE; a definition that spells the words themselves still
    ranks first."""
    terms = QueryTerms.parse("the ahead-of-time compiler and argument-dependent lookup")
    assert terms.acronyms == ("aot", "adl")
    assert QueryTerms.parse("a user-defined type").acronyms == ("udt",)
    assert QueryTerms.parse("a well-known port of the type").acronyms == ("wkp",)
    assert QueryTerms.parse("read-only of the file").acronyms == ()  # a stop word after it
    symbols = [
        make_symbol("aot_build", doc="Build a schema."),
        make_symbol("build_ahead", doc="Build a schema ahead of time."),
        make_symbol("jit_build", doc="Build a schema."),
    ]
    index = lexical.LexicalIndex.build(build_documents(symbols))
    terms = QueryTerms.parse("ahead-of-time schema build")
    scores, _ = index.scores(terms, lexical.BODY_AWARE)
    assert scores[1] > scores[0] > scores[2] > 0
    without, _ = index.scores(QueryTerms(terms.required), lexical.BODY_AWARE)
    assert without[0] == without[2]  # the acronym alone tells aot_build from jit_build
    assert lexical.ACRONYM_SHARE == 0.5


def test_prose_counts_a_synonym_at_a_share_of_a_word() -> None:
    """A sentence's "delete" finds ``strip_flags`` (its synonym), below a definition that
    says "delete" itself; a name query matches names as written, synonyms aside."""
    symbols = [
        make_symbol("strip_flags", doc="Strip the flags."),
        make_symbol("delete_flags", doc="Delete the flags."),
        make_symbol("print_flags", doc="Print the flags."),
    ]
    index = lexical.LexicalIndex.build(build_documents(symbols))
    prose = lexical.BODY_AWARE
    assert prose.synonyms == 0.3
    terms = QueryTerms.parse("delete flags")
    scores, matched_all = index.scores(terms, prose)
    assert matched_all.tolist() == [True, True, False]  # a synonym holds its word's place
    assert scores[1] > scores[0] > scores[2] > 0
    plain, _ = index.scores(terms, lexical.Bm25f(body=3.0, b_body=0.2, coordination=0.5))
    assert plain[0] == plain[2] < plain[1]  # without synonyms strip is print's equal
    names = lexical.rank(index, "delete flags", None, 10)
    assert names.and_matches == 1


def test_a_term_kept_between_queries_scores_as_it_did_when_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A term met before keeps its addends (each row once; over every symbol when it is
    in a quarter of them): the scores and rankings are bit for bit those of a fresh index,
    for names and prose, with and without a mask."""
    monkeypatch.setattr(kept_module, "ROWS", 1)
    symbols = [
        make_symbol(f"test_{verb}_{noun}", doc=f"Check that {noun} can {verb} the rows.")
        for verb in ("insert", "update", "delete", "select", "merge", "flush")
        for noun in ("table", "column", "session", "mapper")
    ]
    documents = build_documents(symbols)
    kept = lexical.LexicalIndex.build(documents)
    mask = np.arange(len(symbols)) % 3 != 0
    queries = ("test_insert_table", "session", "delete the rows of a mapper", "flush column")
    for _ in range(3):  # met, kept, read from what was kept
        for query in queries:
            for weighting in (lexical.HEAD_FIRST, lexical.BODY_AWARE):
                fresh = lexical.LexicalIndex.build(documents)
                terms = QueryTerms.parse(query)
                for ours, theirs in zip(
                    kept.scores(terms, weighting), fresh.scores(terms, weighting), strict=True
                ):
                    assert np.array_equal(ours, theirs)
                for only in (None, mask):
                    a = lexical.rank(kept, query, only, 5, weighting)
                    b = lexical.rank(fresh, query, only, 5, weighting)
                    assert a.and_matches == b.and_matches
                    assert np.array_equal(a.ranking.positions, b.ranking.positions)
                    assert np.array_equal(a.ranking.scores, b.ranking.scores)
                    assert np.array_equal(a.ranking.matched, b.ranking.matched)
    held = list(kept._kept._items.values())
    assert {v.rows is None for v in held} == {True, False}  # both forms were kept
    assert sum(v.nbytes for v in held) <= kept_module.ROW_BYTES * kept.size  # a small index


def test_mask_restricts_candidates() -> None:
    symbols = [make_symbol("send_mail"), make_symbol("send_sms")]
    index = lexical.LexicalIndex.build(build_documents(symbols))
    mask = np.asarray([False, True])
    result = lexical.rank(index, "send", mask, 10)
    assert result.ranking.positions.tolist() == [1]


def test_prose_and_keyword_lists_are_told_apart() -> None:
    from symfuse.ranking.channels.tokens import is_sentence

    assert is_sentence("merge rankings by weighted reciprocal rank")
    assert is_sentence("parse the query")
    assert not is_sentence("reciprocal rank fusion")  # keywords: the lexical channel leads
    assert not is_sentence("getUserById")
    assert not is_sentence("of the")


def test_a_method_carries_its_class_docstring_as_context() -> None:
    store = synthetic_symbol(
        "Store",
        kind=Kind.CLASS,
        symbol_id="pkg/mod.py::Store#class",
        fqn="pkg.mod.Store",
        signature="class Store:",
        doc="Keep the pending invoices of a customer.",
    )
    method = synthetic_symbol(
        "load",
        kind=Kind.METHOD,
        symbol_id="pkg/mod.py::Store.load#method",
        fqn="pkg.mod.Store.load",
        signature="def load(self):",
        parent=store.symbol_id,
    )
    other = make_symbol("load_all", signature="def load_all():")
    own = make_symbol("bill", doc="Print the invoices.", signature="def bill():")
    symbols = [store, method, other, own]
    index = lexical.LexicalIndex.build(build_documents(symbols))
    scores, _ = index.scores(QueryTerms(("invoic",)))
    # The method matches through its class's docstring, at half the weight of an own doc.
    assert scores[1] > 0
    assert scores[2] == 0
    assert scores[3] > scores[1]
    fields = symbol_fields(method, context=store.doc)
    assert fields[Field.CONTEXT] == store.doc


def test_a_function_carries_the_docstrings_of_what_it_calls_and_what_calls_it() -> None:
    helper = make_symbol("fetch_rates", doc="Download the exchange rates.")
    other = make_symbol("log_line", doc="Write one line to the log.")
    caller = make_symbol("convert", signature="def convert(amount):")
    user = make_symbol("checkout", doc="Bill the basket in the customer's currency.")
    idle = make_symbol("noop", signature="def noop():")
    symbols = [helper, other, caller, user, idle]
    documents = build_documents(symbols)
    width = len(documents.vocabulary)
    # convert calls fetch_rates, log_line and itself; checkout calls convert.
    calls = np.asarray([2, 2, 2, 3], dtype=np.int32)
    callees = np.asarray([0, 1, 2, 2], dtype=np.int32)
    extra = call_docs(symbols, calls, callees, documents.term_ids, width)
    ids = documents.term_ids
    # The mean of the two callees' docs at CALLEE_DOC ("exchang" is in one of two) ...
    assert extra[2, ids["exchang"]] == pytest.approx(CALLEE_DOC / 2)
    # ... plus the caller's doc at CALLER_DOC; a callee gets its undocumented caller's nothing.
    assert extra[2, ids["currency"]] == pytest.approx(CALLER_DOC)
    assert extra[0].nnz == 0
    assert np.flatnonzero(np.diff(extra.indptr)).tolist() == [2]
    index = lexical.LexicalIndex.build(with_inherited(documents, extra))
    scores, _ = index.scores(QueryTerms(("exchang",)))
    assert scores[0] > scores[2] > 0
    assert scores[4] == 0


def test_document_frequency_counts_rows_with_the_term_in_head_or_body() -> None:
    rng = np.random.default_rng(3)
    head = sparse.random(300, 40, density=0.1, random_state=rng, format="csc") * 5
    body = sparse.random(300, 40, density=0.1, random_state=rng, format="csc") * 5
    dense = (head.toarray() > 0) | (body.toarray() > 0)
    assert np.array_equal(lexical._union_counts(head, body), dense.sum(axis=0).astype(np.float64))
