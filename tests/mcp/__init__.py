"""Tests of the mcp layer."""
