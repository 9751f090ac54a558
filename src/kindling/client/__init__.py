"""Remote mode: talk to a ``kindling serve`` instead of a local database.

``transport.RemoteClient`` speaks the HTTP API with the standard library only (no extra to
install, nothing heavy on the hooks' import path); ``front.RemoteKindling`` is a ``Memory``
(``kindling.memory``): every verb of ``Kindling``, returning the same typed values, read from
the wire JSON by ``model.wire``.
Secrets are masked here, before a request leaves the machine (the server masks again).

Must not be imported by the core; imports only the core.
"""
