"""Tests of the docs layer."""
