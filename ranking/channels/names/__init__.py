"""Name matching without the fused ranking: prefilters, scans and the names-only ranking.

The camel-hump prefilter, suffix arrays and joined-text scans the identity channel
reads, the order among same-named definitions, and the ranking by names alone that
needs no prepared structures (an editor's picker and a cold start use it).
"""
