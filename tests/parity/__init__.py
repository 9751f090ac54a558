"""Tests of the parity layer."""
