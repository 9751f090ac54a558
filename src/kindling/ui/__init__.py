"""``kindling ui`` and the page of ``kindling serve``: the memory browser (extra ``server``).

Server-rendered HTML over the same verbs as the HTTP API: ``source`` makes one library call per
action (the local database, or ``http.api.Api`` under a team token's access rules),
``markup`` escapes every value it is given, ``guard`` keeps strangers out (token cookie,
loopback ``Host``, CSRF, CSP), ``pages``/``views``/``actions`` render, ``app`` routes.

Must not be imported by the core, the hooks or the other adapters (the CLI hosts its entry).
"""
