"""The free-question set: questions people would write, judged by reading (see README.md)."""
