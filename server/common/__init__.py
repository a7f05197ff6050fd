"""What the front ends share: the output formats (JSON, TOON, text) and their renderer."""
