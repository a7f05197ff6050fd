"""The query layer: one typed request and one typed answer per operation, validated once.

Every operation (search, usages, text, get, callers, callees, hierarchy, status,
reindex) has a request model (:mod:`.requests`; search's is
:class:`symfuse.ranking.query.search_request.SearchRequest`) whose fields carry their
defaults, bounds and a one-line description, and one function that answers it
(:mod:`.operations`). The front ends generate their command-line options and
MCP tool schemas from these models (:data:`.operations.OPERATIONS`) and only
translate answers. A query is read once, before any ranking (:mod:`.parse`: mode, call
question, shape, the editor's filter prefixes). With :mod:`symfuse.ranking.api`, this
package is the door: the only part of ranking the front ends import.
"""
