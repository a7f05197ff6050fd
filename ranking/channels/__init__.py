"""The channels: each ranks the symbols on one kind of evidence, on its own.

lexical (BM25F), identity and the name rankings of ``names/``, fuzzy, similarity,
structural (PageRank), translation and the optional ``neural/`` extra, with the
tokenizer and the per-symbol documents they share. A channel returns a
:class:`~symfuse.ranking.channels.topk.Ranking`; fusion merges them. May import the
indexer's model, the query door's requests and :mod:`symfuse.ranking.prepared`.
"""
