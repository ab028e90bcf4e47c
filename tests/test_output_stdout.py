"""Standard output whose reader closes it early."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.output.stdout import CLOSED_PIPE_STATUS, run_printing


def test_the_status_of_a_command_that_printed() -> None:
    assert run_printing(lambda: 3) == 3


def test_a_closed_pipe_is_the_closed_pipe_status_not_an_exception() -> None:
    def command() -> int:
        raise BrokenPipeError(32, "Broken pipe")

    assert run_printing(command) == CLOSED_PIPE_STATUS


def test_other_errors_pass_through() -> None:
    def command() -> int:
        raise ValueError("bad option")

    with pytest.raises(ValueError, match="bad option"):
        run_printing(command)
