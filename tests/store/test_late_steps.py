"""SQLite's index links each step to the step just before it by (time, insertion), whatever
order the steps were written in, as PostgreSQL does (``store.sqlite.index.NEIGHBOUR_SQL``,
``index_from``): checked against a plain sort, over random orders of writes, single and in
batches, across sessions."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import Kindling, NewObservation, Scope
from kindling.store.sqlite import index

writes = st.lists(
    st.lists(
        st.tuples(st.sampled_from(["s1", "s2", None]), st.integers(1, 40)), min_size=1, max_size=4
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(batches=writes)
def test_every_step_is_linked_to_the_one_just_before_it(
    batches: list[list[tuple[str | None, int]]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "k.db"
        with Kindling.open(db) as kd:
            n = 0
            for batch in batches:
                rows = []
                for session, ts in batch:
                    rows.append(
                        NewObservation("message", f"w{n}", Scope(session_id=session), ts=ts)
                    )
                    n += 1
                if len(rows) == 1:
                    r = rows[0]
                    kd.append_observation(kind=r.kind, content=r.content, scope=r.scope, ts=r.ts)
                else:
                    kd.append_many(rows)
        with sqlite3.connect(db) as conn:
            index.register_functions(conn)
            stored = conn.execute("SELECT rowid, session_id, ts FROM observations").fetchall()
            links = dict(conn.execute("SELECT rowid, prev_rowid FROM observation_context"))
            conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")
    want: dict[int, int | None] = {}
    for rowid, session, ts in stored:
        before = [(t, r) for r, s, t in stored if s == session and (t, r) < (ts, rowid)]
        want[rowid] = max(before)[1] if session is not None and before else None
    assert links == want
