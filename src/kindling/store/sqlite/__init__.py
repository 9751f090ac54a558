"""The embedded SQLite backend of the ``Store`` protocol, one module per job.

``SqliteStore`` (``store.py``) is the one class callers use; ``connection.py`` owns the
connection, pragmas, transactions and busy retries behind public methods that the verb modules
(``observations``, ``capsules``, ``summaries``, ``pins``, ``search``, ``details``, ``forget``,
``export``, ``tokens``) call. ``index.py`` says what each observation is searchable by,
``migrations.py`` holds the schema steps, ``purge.py`` makes forgotten text leave the files,
``retry.py`` retries SQLITE_BUSY outside the busy handler and ``doctor.py`` checks and salvages
a damaged file.

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""

from kindling.store.sqlite.store import SqliteStore

__all__ = ["SqliteStore"]
