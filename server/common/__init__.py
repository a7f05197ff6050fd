"""What the front ends share: the one presentation path (:mod:`.present`: trim a flat
page to the token budget, then group it), the output formats (:mod:`.output`), settings,
metrics and the query cache, and the live-index service both servers run on
(:mod:`.service`: one background warm-up of the ranking structures, one staleness
policy, one reindex path, one status). Imports ranking only through its door."""
