"""Standard output that its reader may close early (``... | head -1``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

__all__ = ["CLOSED_PIPE_STATUS", "run_printing"]

#: Exit status when the reader of standard output went away: 128 + SIGPIPE, what a shell
#: reports for a program ended by a closed pipe.
CLOSED_PIPE_STATUS = 141


def run_printing(command: Callable[[], int]) -> int:
    """``command()``'s exit status, its output flushed; :data:`CLOSED_PIPE_STATUS`, without a
    traceback, when standard output's reader has closed it (what is left goes nowhere)."""
    try:
        status = command()
        sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
        return CLOSED_PIPE_STATUS
    return status


def _discard_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush of what is
    still buffered cannot fail again (the recipe of Python's ``signal`` documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (captured output): nothing to flush
        pass
