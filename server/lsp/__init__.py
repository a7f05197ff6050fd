"""The language server (pygls): workspace symbols, navigation, hierarchies, live buffers."""
