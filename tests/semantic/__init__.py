"""Tests of the semantic layer."""
