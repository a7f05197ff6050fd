"""Answers from git history: history search, a definition as of a commit, evolution.

Reads the history index of :mod:`symfuse.indexer.history`; may import the channels'
tokenizer and the search pipeline (a tree as of a commit is searched like any index).
"""
