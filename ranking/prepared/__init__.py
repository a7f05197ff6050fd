"""The prepared structures: built per index generation, saved in the ranking file, loaded.

Per-file pieces cached by content (``corpus``), joined into a generation's structures
(``build``, ``joined``), written and read as ``ranking-<generation>.npz``
(``persist``, ``ranking_file``), with the sparse and quantized arrays they are made of.
May import the indexer and the channels whose structures it builds.
"""
