"""The PostgreSQL backend (optional extra ``kindling-memory[postgres]``: psycopg 3 + pool).

``Kindling.open("postgresql://...")`` imports this package on demand; nothing in the core or
the hooks imports it otherwise, so a plain install never loads psycopg.
"""

from kindling.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
