"""Tests of the hooks layer."""
