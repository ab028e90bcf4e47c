"""The scrapy-boilerplate command line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from scrapy_boilerplate.cli import main

ARTICLE = Path(__file__).parent / "fixtures" / "pages" / "article.html"


def test_extract_prints_title_then_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(ARTICLE)]) == 0
    out = capsys.readouterr().out
    title, _, text = out.partition("\n\n")
    assert title == "Harbour bridge reopens after repairs"
    assert "harbour bridge reopened" in text


def test_extract_prints_metadata_after_the_title_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        '<html lang="en"><head><title>Otters</title><meta name="author" content="Anna Weber">'
        '<meta name="author" content="Ben Ode"></head><body><p>Text.</p></body></html>',
        encoding="utf-8",
    )
    assert main(["extract", "--metadata", str(page)]) == 0
    head, _, _ = capsys.readouterr().out.partition("\n\n")
    assert head.splitlines() == ["Otters", "authors: Anna Weber; Ben Ode", "language: en"]
    assert main(["extract", "--json", "--no-blocks", str(page)]) == 0
    assert json.loads(capsys.readouterr().out)["metadata"]["authors"] == ["Anna Weber", "Ben Ode"]


def test_extract_json_has_blocks(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "extract",
                "--json",
                "--extractor",
                "article-rules",
                "-o",
                "ancestor_depth=3",
                str(ARTICLE),
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["options"]["ancestor_depth"] == 3 and data["blocks"]


def test_bad_option_exits_2_with_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["extract", "--extractor", "article-rules", "-o", "ancestor_depth=7", str(ARTICLE)])
        == 2
    )
    assert "ancestor_depth" in capsys.readouterr().err


def test_unreadable_page_is_reported_not_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert main(["extract", str(empty), str(ARTICLE)]) == 1
    captured = capsys.readouterr()
    assert "empty document" in captured.err and "harbour bridge" in captured.out


def test_extract_dir_writes_article_benchmark_predictions(tmp_path: Path) -> None:
    html_dir = tmp_path / "html"
    html_dir.mkdir()
    (html_dir / "a1.html.gz").write_bytes(gzip.compress(ARTICLE.read_bytes()))
    (html_dir / "a2.html").write_bytes(b"")
    out = tmp_path / "pred.json"
    assert main(["extract-dir", str(tmp_path), "--out", str(out), "--quiet"]) == 0
    predictions = json.loads(out.read_text())
    assert set(predictions) == {"a1", "a2"}
    assert predictions["a1"]["headline"] == "Harbour bridge reopens after repairs"
    assert "harbour bridge reopened" in predictions["a1"]["articleBody"]
    assert predictions["a2"]["articleBody"] == "" and "error" in predictions["a2"]


def test_extract_dir_with_jobs(tmp_path: Path) -> None:
    html_dir = tmp_path / "html"
    html_dir.mkdir()
    for n in range(3):
        (html_dir / f"p{n}.html").write_bytes(ARTICLE.read_bytes())
    out = tmp_path / "pred.json"
    assert main(["extract-dir", str(tmp_path), "--out", str(out), "--jobs", "2", "--quiet"]) == 0
    assert len(json.loads(out.read_text())) == 3
