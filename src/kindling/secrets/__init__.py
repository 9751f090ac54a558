"""The secret scrubber: credentials masked in text before Kindling writes anything.

``scrub`` is the entry point (cheap to import; the rules compile on first use), the rule
modules ``scrub_*`` and ``secret_shapes`` share the leaf ``scrub_values``, ``session_secrets``
remembers a session's masked values (keyed hashes), and ``privacy`` scrubs an entity's values
at the engine's door. Pure: no store, no engine.

Must not import anything from Kindling except ``errors``, ``model`` and ``secrets``.
"""
