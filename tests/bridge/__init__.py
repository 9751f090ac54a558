"""Tests of the bridge layer."""
