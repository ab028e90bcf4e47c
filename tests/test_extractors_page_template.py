"""The ``page-template`` extractor: node templateness smoothed over the tree."""

from __future__ import annotations

import pytest
from template_pages import PAGE

from scrapy_boilerplate import extract, get_extractor
from scrapy_boilerplate.classifiers.template import load_template_model


def test_page_template_extractor() -> None:
    result = extract(PAGE, url="https://town.example/a", extractor="page-template")
    assert result.extractor == "page-template"
    assert "river bridge" in result.text
    assert "Privacy policy" not in result.text
    basic = extract(PAGE, extractor="page-template", smooth=False)
    assert basic.options["smooth"] is False
    with pytest.raises(ValueError):
        get_extractor("page-template", weighting="area")
    with pytest.raises(ValueError):
        get_extractor("page-template", tau=2.0)


def test_a_page_without_blocks() -> None:
    assert extract("<html><body><img src=x></body></html>", extractor="page-template").text == ""


def test_options_default_to_the_models_operating_point() -> None:
    model = load_template_model()
    smooth = get_extractor("page-template")
    assert smooth.options["c"] == 0.0 and smooth.options["tau"] == 0.0
    (step,) = smooth.spec.build_chain(smooth.options, None)  # type: ignore[arg-type]
    assert step.c == model.metadata["c"] and step.threshold == model.metadata["threshold"]
    basic = get_extractor("page-template", smooth=False, c=0.5)
    (step,) = basic.spec.build_chain(basic.options, None)  # type: ignore[arg-type]
    assert not step.smooth and step.threshold == model.metadata["basic_threshold"]
    assert step.c == 0.5
