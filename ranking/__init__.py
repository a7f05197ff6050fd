"""symfuse ranking."""
