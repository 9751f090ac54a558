"""Tests of the agents layer."""
