"""The storage verbs written once, over a ``Dialect`` (``dialect``): every verb whose SQL
both backends can share, as mixins that reach the database only through ``SqlDatabase``.

``SqlStore`` (``store``) assembles them; a backend adds its database (connection,
transactions, error mapping, migrations), its search and index maintenance, and the forget
steps that touch them (``store.sqlite``, ``store.postgres``).

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""
