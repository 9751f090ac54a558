"""Tests of the secrets layer."""
