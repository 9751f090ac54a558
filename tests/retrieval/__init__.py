"""Tests of the retrieval layer."""
