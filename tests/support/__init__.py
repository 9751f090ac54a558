"""Helpers shared by the tests (never collected: no test_ prefix)."""
