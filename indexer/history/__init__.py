"""The history index: each repository's commits and the definitions their diffs touched.

``gitlog`` reads commits and blobs from git, ``touched`` maps a diff to definitions,
``records`` is what is kept, ``store`` where, and ``build`` brings it up to date.
"""
