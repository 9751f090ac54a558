"""The optional semantic signal (extra ``kindling-memory[semantic]``): a sentence-embedding model
that re-ranks what the lexical index finds.

- ``models``: the pinned models (origin, revision, licence, size, each file's sha256);
- ``install``: fetch on first use from the pinned revision, or install from a local directory,
  verifying every file; never a silent fall back;
- ``wordpiece`` (pure) and ``encoder`` (numpy): text to a normalised vector, on one CPU thread;
- ``codec`` (pure): vectors as int8 bytes, cosine in exact integer arithmetic;
- ``indexer``: the background backfill, newest first, resumable, secrets masked first;
- ``scorer``: the ``retrieval.semantic.SemanticScorer`` the provider calls;
- ``setup``: whether a store gets the signal (extra installed, model present, vectors stored).

Importing this package imports nothing heavy: numpy loads only when a model does. Hooks never
come here; the core (model, store, retrieval, capture) never imports it.

Must not import ``click`` or ``mcp``.
"""
