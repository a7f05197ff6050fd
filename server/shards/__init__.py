"""Repository shards: one self-contained index per repository, built and queried on Dask.

A shard directory holds one folder per repository alias, each with the index
``symfuse index`` writes for that root alone (``index/``) and a ``shard.json``
manifest (:mod:`.manifest`). :mod:`.build` builds the shards as Dask tasks,
:mod:`.holders` keeps them loaded on the workers, :mod:`.fanout` asks each and
merges the answers, and :mod:`.service` puts that behind the query service the
front ends already call. Dask is the ``cluster`` extra: :func:`.cluster.need_dask`
says what to install when it is missing.
"""
