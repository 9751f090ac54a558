"""Command line entry point (filled in by the CLI issue)."""

import sys


def main() -> None:
    print("usage: kindling COMMAND ...")
    sys.exit(0)
