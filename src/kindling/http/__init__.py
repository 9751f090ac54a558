"""``kindling serve``: the HTTP JSON API over the library (extra ``kindling-memory[server]``).

``app.create_app(kd)`` builds a Starlette application: bearer-token authentication
(``auth``), one library call per endpoint (``api``), errors as ``{"error": {"code",
"message"}}`` with the library's stable codes, and an OpenAPI document (``openapi``).

Must not be imported by the core, the hooks or the other adapters.
"""
