"""Remote mode: talk to a ``kindling serve`` instead of a local database.

``client.RemoteClient`` speaks the HTTP API with the standard library only (no extra to
install, nothing heavy on the hooks' import path); ``front.RemoteKindling`` offers the
``Kindling`` verbs the CLI uses, returning the same typed values, parsed from the wire JSON.
Secrets are masked here, before a request leaves the machine (the server masks again).

Must not be imported by the core; imports only the core.
"""
