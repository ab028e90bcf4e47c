"""Dataset readers on tiny fixture datasets (and on ../shared/datasets when present)."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate import extract
from scrapy_boilerplate.evaluation.datasets import (
    DatasetError,
    Page,
    cleaneval_gold_text,
    datasets_root,
    detect_format,
    load_pages,
    resolve_dataset,
)

FIXTURES = Path(__file__).parent / "fixtures" / "datasets"


def test_detect_format(tmp_path: Path) -> None:
    assert detect_format(FIXTURES / "wcxb") == "wcxb"
    assert detect_format(FIXTURES / "article-benchmark") == "article-benchmark"
    (tmp_path / "original").mkdir()
    (tmp_path / "annotated").mkdir()
    assert detect_format(tmp_path) == "l3s-gn1"
    with pytest.raises(DatasetError, match="not a known dataset layout"):
        detect_format(FIXTURES)


def test_wcxb_pages() -> None:
    pages = list(load_pages(FIXTURES / "wcxb"))
    assert [page.id for page in pages] == ["0001", "0002"]
    first = pages[0]
    assert first.url == "https://parks.example/trail"
    assert first.title == "Trail report"
    assert first.page_type == "article"
    assert first.gold_text.startswith("Trail report\n\nThe northern trail")
    assert first.with_snippets == ("The northern trail reopened on Monday",)
    assert first.without_snippets == ("Login", "Copyright 2025 Example Parks")
    assert b"<article>" in first.html
    # empty snippets are dropped
    assert pages[1].without_snippets == ("Cart",)


def test_filters_and_limit() -> None:
    assert [p.id for p in load_pages(FIXTURES / "wcxb", page_type="product")] == ["0002"]
    assert [p.id for p in load_pages(FIXTURES / "wcxb", limit=1)] == ["0001"]
    assert list(load_pages(FIXTURES / "wcxb", page_type="forum")) == []


def test_article_benchmark_pages_skip_ids_without_html() -> None:
    pages = list(load_pages(FIXTURES / "article-benchmark"))
    assert pages == [
        Page(
            id="p1",
            html=(FIXTURES / "article-benchmark" / "html" / "p1.html").read_bytes(),
            url="https://news.example/cafe",
            gold_text=(
                "The new café on Station Road opened its doors on Saturday morning to a long "
                "queue.\nIts owner said the recipes come from her grandmother in Lyon."
            ),
            title="Café opens",
        )
    ]


def test_gzipped_pages_are_decompressed(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "article-benchmark", tmp_path / "ds")
    html_path = tmp_path / "ds" / "html" / "p1.html"
    raw = html_path.read_bytes()
    with gzip.open(html_path.with_suffix(".html.gz"), "wb") as handle:
        handle.write(raw)
    html_path.unlink()
    (page,) = load_pages(tmp_path / "ds")
    assert page.id == "p1"
    assert page.html == raw


def test_bad_ground_truth_file(tmp_path: Path) -> None:
    (tmp_path / "html").mkdir()
    (tmp_path / "ground-truth.json").write_text(json.dumps(["not", "a", "mapping"]))
    with pytest.raises(DatasetError, match="must map page id"):
        list(load_pages(tmp_path))


def test_resolve_dataset_uses_the_env_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(FIXTURES / "wcxb", tmp_path / "mini")
    monkeypatch.setenv("BOILERPLATE_DATASETS", str(tmp_path))
    assert datasets_root() == tmp_path
    assert resolve_dataset("mini") == tmp_path / "mini"
    with pytest.raises(DatasetError, match="no dataset folder"):
        resolve_dataset("missing")


def test_without_the_env_root_only_paths_resolve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BOILERPLATE_DATASETS", raising=False)
    assert datasets_root() is None
    shutil.copytree(FIXTURES / "wcxb", tmp_path / "mini")
    assert resolve_dataset(tmp_path / "mini") == tmp_path / "mini"
    with pytest.raises(DatasetError, match="BOILERPLATE_DATASETS is not set"):
        resolve_dataset("wcxb-dev")


# -- the shared datasets (skipped in a user's clone) ------------------------------------------

SHARED = SHARED_DATASETS


@pytest.mark.skipif(not (SHARED / "wcxb-dev").is_dir(), reason="shared WCXB dataset not present")
def test_shared_wcxb_dev() -> None:
    pages = list(load_pages(SHARED / "wcxb-dev", limit=3))
    assert len(pages) == 3
    assert all(page.gold_text and page.html and page.page_type for page in pages)
    ids = [p.id for p in load_pages(SHARED / "wcxb-dev", page_type="documentation")]
    assert len(ids) == 91  # the README's count of documentation pages


@pytest.mark.skipif(not (SHARED / "l3s-gn1").is_dir(), reason="shared L3S-GN1 dataset not present")
def test_shared_l3s_gn1() -> None:
    assert detect_format(SHARED / "l3s-gn1") == "l3s-gn1"
    pages = list(load_pages(SHARED / "l3s-gn1", limit=2))
    assert len(pages) == 2
    assert all(page.gold_text and page.html for page in pages)


@pytest.mark.skipif(not (SHARED / "l3s-gn1").is_dir(), reason="shared L3S-GN1 dataset not present")
def test_shared_l3s_gn1_full_text_gold_leaves_comments_and_related_out() -> None:
    every = list(load_pages(SHARED / "l3s-gn1", limit=40))
    full = list(load_pages(f"{SHARED / 'l3s-gn1'}#full-text", limit=40))
    assert [p.id for p in full] == [p.id for p in every]
    assert all(len(f.gold_text) <= len(e.gold_text) for f, e in zip(full, every, strict=True))
    assert any(len(f.gold_text) < len(e.gold_text) for f, e in zip(full, every, strict=True))
    with pytest.raises(DatasetError, match="full-text"):
        next(load_pages(f"{SHARED / 'wcxb-dev'}#full-text"))


def test_cleaneval_layout_pages_and_gold(tmp_path: Path) -> None:
    (tmp_path / "input").mkdir()
    (tmp_path / "gold").mkdir()
    page = (
        '<text id="http://example.org/a" title="A" encoding="windows-1252">'
        '<html><head><meta charset="utf-8"></head><body><p>Caf\xe9 news</p></body></html></text>'
    ).encode("cp1252")
    (tmp_path / "input" / "7.html.gz").write_bytes(gzip.compress(page))
    (tmp_path / "input" / "8.html.gz").write_bytes(gzip.compress(page))  # no gold: skipped
    gold = "\ufeffURL: http://example.org/a\n<h> Caf\xe9\n<p> First line\n continued\n<l> item\n"
    (tmp_path / "gold" / "7.txt.gz").write_bytes(gzip.compress(gold.encode("utf-8")))
    assert detect_format(tmp_path) == "cleaneval"
    (only,) = load_pages(tmp_path)
    assert only.id == "7" and only.url == "http://example.org/a"
    assert only.gold_text == "Caf\xe9\n\nFirst line continued\n\nitem"
    assert only.html.startswith(b"\xef\xbb\xbf")  # the BOM outranks the lying <meta>
    assert "Caf\xe9 news" in extract(only.html, extractor="keep-everything").text
    assert cleaneval_gold_text("no markers\nat all") == "no markers at all"
