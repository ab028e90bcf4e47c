"""Extractor options: a mistyped name is told the name it most likely meant."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.model.options import (
    Option,
    closest_name,
    did_you_mean,
    validate_options,
)

DEPTH = Option("ancestor_depth", int, 2, "how far up")


def test_the_closest_known_name_of_a_typo() -> None:
    assert closest_name("artcle", ["article", "numwords"]) == "article"
    assert closest_name("zzz", ["article", "numwords"]) is None


def test_did_you_mean_is_empty_without_a_close_name() -> None:
    assert did_you_mean("ancestor_dept", ["ancestor_depth"]) == "did you mean 'ancestor_depth'? "
    assert did_you_mean("colour", ["ancestor_depth"]) == ""


def test_an_unknown_option_names_the_option_it_looks_like() -> None:
    with pytest.raises(
        ValueError, match="no option 'ancestor_dept' \\(did you mean 'ancestor_depth'"
    ):
        validate_options("article", [DEPTH], {"ancestor_dept": 3})
