"""``python -m bench.pg_quality``: the quality set (``bench.quality``) on PostgreSQL.

    python -m bench.pg_quality --db postgresql://postgres@127.0.0.1/test

Loads the judged histories into a throw-away schema (dropped afterwards), runs the same
queries and prints the same table as ``python -m bench.quality`` does for SQLite.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from urllib.parse import quote

import psycopg

from bench.quality.evaluate import markdown_table, run_quality


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pg_quality", description=__doc__)
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args(argv)
    schema = f"kd_quality_{secrets.token_hex(4)}"
    sep = "&" if "?" in args.db else "?"
    with psycopg.connect(args.db, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        report = run_quality(f"{args.db}{sep}options={quote(f'-csearch_path={schema}')}")
    finally:
        with psycopg.connect(args.db, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    print(markdown_table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
