"""symfuse server."""
