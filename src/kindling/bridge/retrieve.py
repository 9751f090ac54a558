"""``python -m kindling.bridge.retrieve [--db PATH] WORKSPACE QUERY [MAX_RESULTS] [MAX_TOKENS]
[HALF_LIFE_DAYS] [INCLUDE_SUPERSEDED]``: the seed's process form of ``kindling bridge
retrieve``, without click; same arguments, same database resolution, same bytes on stdout.

Must not import ``kindling.cli`` or other adapters.
"""

from __future__ import annotations

import os
import sys

from kindling.bridge.contract import database
from kindling.bridge.handler import emit, run_retrieve
from kindling.config import default_db_file


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    outcome = run_retrieve(args, default_db=database(default_db_file()), env=os.environ)
    return emit(outcome, sys.stdout.buffer, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
