"""Tests of the suite layer."""
