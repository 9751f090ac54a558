"""What the hooks never record: contents of excluded paths, and the tools in ``skip_tools``.

Pure; globs are matched as ``fnmatch.fnmatchcase`` does (case-sensitive, as paths and tool
names are), the common forms (``Bash``, ``id_rsa*``, ``*.pem``) without it: ``fnmatch``
compiles a pattern per glob, and a hook checks some thirty globs once each.
Must not import click, the CLI or the MCP server, nor open a database; no dataclasses, typing
or pathlib (see ``kindling.hooks``).
"""

from __future__ import annotations

import posixpath

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def fnmatchcase(name: str, pattern: str) -> bool:
    """``fnmatch.fnmatchcase(name, pattern)``, without compiling a pattern for a glob that is a
    plain word or holds one ``*`` at its start or its end (``*`` matches any characters)."""
    if "?" not in pattern and "[" not in pattern:
        stars = pattern.count("*")
        if stars == 0:
            return name == pattern
        if stars == 1 and pattern.endswith("*"):
            return name.startswith(pattern[:-1])
        if stars == 1 and pattern.startswith("*"):
            return name.endswith(pattern[1:])
    from fnmatch import fnmatchcase as glob_match

    return glob_match(name, pattern)


def is_excluded(path: str, patterns: tuple[str, ...]) -> bool:
    """Match a path's file name (or, for patterns with a "/", the whole path) to the globs."""
    if not path:
        return False
    posix = path.replace("\\", "/")
    name = posixpath.basename(posix.rstrip("/"))
    for pattern in patterns:
        if "/" in pattern:
            if fnmatchcase(posix, pattern) or fnmatchcase(posix, "*/" + pattern.lstrip("/")):
                return True
        elif fnmatchcase(name, pattern):
            return True
    return False


def _words(command: str) -> list[str]:
    import shlex  # only commands need it

    try:
        return shlex.split(command, posix=True)
    except ValueError:
        return command.split()


def command_touches_excluded(command: str, patterns: tuple[str, ...]) -> str | None:
    """The first word of a shell command naming an excluded path (``cat .env``), if any."""
    for word in _words(command):
        for part in word.replace("=", " ").replace(";", " ").split():
            if is_excluded(part.strip("<>|&()'\""), patterns):
                return part
    return None


def is_skipped_tool(tool: str, tool_input: dict[str, Any], patterns: tuple[str, ...]) -> bool:
    command = tool_input.get("command")
    for pattern in patterns:
        tool_glob, sep, command_glob = pattern.partition(":")
        if not fnmatchcase(tool, tool_glob):
            continue
        if not sep:
            return True
        if isinstance(command, str) and fnmatchcase(command.strip(), command_glob):
            return True
    return False


def drop_excluded_lines(text: str, patterns: tuple[str, ...]) -> str:
    """Grep output lines look like ``path:line:content``; drop those from excluded files."""
    kept = [
        line
        for line in text.splitlines()
        if not is_excluded(line.split(":", 1)[0].strip(), patterns)
    ]
    return "\n".join(kept)
