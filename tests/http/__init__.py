"""Tests of the http layer."""
