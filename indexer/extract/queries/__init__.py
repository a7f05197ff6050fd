"""One tree-sitter tags query per language (``<language>.scm``), read as package data."""
