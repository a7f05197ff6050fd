"""symfuse indexer."""
