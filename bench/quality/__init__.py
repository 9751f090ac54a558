"""The labelled quality set: hand-written histories, judged queries, and the IR evaluation.

``histories/*.json`` are multi-session histories in five repositories; ``queries.json`` holds
the queries with graded judgements (2 = the answer, 1 = related) against observation and
summary ids of those histories. ``python -m bench.quality`` loads everything into a fresh
store, runs every query through ``Kindling.retrieve`` and scores the rankings.
"""
