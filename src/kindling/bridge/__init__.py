"""The chat-memory bridge (seed 002): editors and agents run it as a process and read one JSON
object with ranked memories of a workspace.

- ``contract``: the wire contract: arguments, defaults and clamps, the ingest JSON, times.
- ``ranking``: the bridge's own arithmetic (recency and status multipliers, order, budget). Pure.
- ``render``: the summary template and the response objects. Pure.
- ``handler``: one call per command: validate everything, then open the store and call
  ``Kindling``; every outcome is one JSON object and an exit status.
- ``retrieve``: ``python -m kindling.bridge.retrieve``; ``kindling bridge`` is the CLI form.

An adapter: no SQL and no text ranking here (text relevance comes from ``Kindling``).
Must not import ``kindling.cli`` or other adapters; the core never imports this package.
"""
