"""The ``symfuse`` command: ``main`` is the entry point, each other module adds commands.

Subcommand modules import :mod:`.common` (workspace options, IndexConfig,
logging), never :mod:`.main`, so there is no import cycle.
"""
