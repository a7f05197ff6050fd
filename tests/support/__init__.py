"""Helpers shared by the tests: paths, the installed command, clients for the servers.

Test modules import from here and take fixtures from ``tests/conftest.py``; no
test module imports another.
"""
