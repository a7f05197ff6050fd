"""What the front ends share: the output formats (JSON, TOON, text) and their renderer
(:mod:`.output`), the live-index service both servers run on (:mod:`.service`: one
background warm-up of the ranking structures, one staleness policy, one reindex path,
one status) and the reading of a reindex request's paths (:mod:`.targets`)."""
