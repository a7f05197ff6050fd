"""Which files are indexed and as what: discovery, languages, header and layout detection.

May import the indexer's model, errors and config; nothing that parses.
"""
