"""Coding-session quality set: public coding-agent trajectories recorded as Kindling's Claude
Code hooks record them, with questions derived by rule (fix, error, check, location), split by
agent into a tuning part and a held-out part. ``python -m bench.quality.coding`` runs the
harness; ``python -m bench.quality.coding.build`` regenerates the data from fetched mirrors.

Must import nothing: the harness and the builder are separate entry points.
"""
