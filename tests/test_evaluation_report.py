"""Running, scoring and tabulating extractors; the ``evaluate`` command on fixture datasets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.evaluation.datasets import Page, load_pages
from scrapy_boilerplate.evaluation.peers import parse_spec, resolve_extractor
from scrapy_boilerplate.evaluation.report import (
    page_text,
    quality_table,
    run_extractor,
    score_page,
    summarise,
    type_table,
)

FIXTURES = Path(__file__).parent / "fixtures" / "datasets"


def test_parse_spec() -> None:
    assert parse_spec("article") == ("article", {})
    assert parse_spec("article:ancestor_depth=0,min_share=0.5") == (
        "article",
        {"ancestor_depth": 0, "min_share": 0.5},
    )
    with pytest.raises(ValueError, match="expected NAME=VALUE"):
        parse_spec("article:ancestor_depth")
    with pytest.raises(ValueError, match="unknown extractor"):
        resolve_extractor("no-such-extractor")


def test_page_text_drops_xml_declaration() -> None:
    page = Page("x", b'<?xml version="1.0" encoding="utf-8"?>\n<html><p>hi</p></html>', None, "")
    assert page_text(page).lstrip().startswith("<html>")


def test_run_extractor_turns_failures_into_empty_text() -> None:
    pages = list(load_pages(FIXTURES / "wcxb"))

    def flaky(html: str, url: str | None) -> str:
        if "kettle" in html:
            raise RuntimeError("boom")
        return "text"

    runs = run_extractor(flaky, pages)
    assert [(r.page_id, r.text, r.error is None) for r in runs] == [
        ("0001", "text", True),
        ("0002", "", False),
    ]
    assert "boom" in (runs[1].error or "")


def test_score_page_snippets() -> None:
    (page, _) = load_pages(FIXTURES / "wcxb")
    score = score_page(page, page.gold_text + "\n\nLogin")
    assert score.shingle.fn == 0
    assert score.with_rate == 1.0
    assert score.without_rate == 0.5  # "Login" leaked, the copyright line did not


def test_summaries_and_tables() -> None:
    pages = list(load_pages(FIXTURES / "wcxb"))
    perfect = [score_page(p, p.gold_text) for p in pages]
    empty = [score_page(p, "", error=True) for p in pages]
    best = summarise("gold", perfect, bootstrap=20)
    assert (best.shingle_f1, best.bow_f1_mean, best.char_f1, best.with_rate) == (1.0, 1.0, 1.0, 1.0)
    worst = summarise("nothing", empty, bootstrap=20)
    assert (worst.shingle_f1, worst.errors, worst.without_rate) == (0.0, 2, 1.0)
    table = quality_table([worst, best])
    assert table.splitlines()[2].startswith("| `gold` | 2 | 1.000")
    by_type = type_table({"gold": perfect, "nothing": empty})
    assert "article (1)" in by_type and "product (1)" in by_type


def test_evaluate_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    predictions = tmp_path / "pred.json"
    predictions.write_text(json.dumps({"p1": {"articleBody": "The new café on Station Road"}}))
    status = main(
        [
            "evaluate",
            str(FIXTURES / "article-benchmark"),
            "--extractor",
            "keep-everything",
            "--predictions",
            str(predictions),
            "--bootstrap",
            "10",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "article-benchmark, 1 pages" in out
    assert "| `keep-everything` | 1 |" in out
    assert "| `pred` | 1 | 1.000 |" in out  # a correct prefix: full precision


def test_evaluate_command_bad_dataset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", str(FIXTURES)]) == 2
    assert "not a known dataset layout" in capsys.readouterr().err
