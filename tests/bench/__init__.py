"""Tests of the bench layer."""
