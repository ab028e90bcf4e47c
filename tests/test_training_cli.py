"""``scrapy-boilerplate train``: a model trained on a small generated dataset is written, loads
as ``article-learned``'s model and separates article text from page furniture."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from scrapy_boilerplate import extract, get_extractor
from scrapy_boilerplate.classifiers.features import feature_names
from scrapy_boilerplate.classifiers.gbdt import load_model
from scrapy_boilerplate.classifiers.template import load_template_model
from scrapy_boilerplate.cli import main

pytest.importorskip("lightgbm")
pytest.importorskip("sklearn")

WORDS = [
    "river",
    "city",
    "council",
    "budget",
    "school",
    "weather",
    "market",
    "police",
    "road",
    "festival",
    "music",
]


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def page(rng: random.Random) -> tuple[str, str]:
    paragraphs = [" ".join(sentence(rng, 12) for _ in range(3)) for _ in range(rng.randint(3, 6))]
    nav = "".join(f'<li><a href="/{w}">{w.title()}</a></li>' for w in rng.sample(WORDS, 6))
    related = "".join(
        f'<li><a href="/r{i}">{sentence(rng, 6)}</a></li>' for i in range(rng.randint(3, 6))
    )
    html = (
        f"<html><head><title>{paragraphs[0][:30]} | Site</title></head><body>"
        f'<nav class="menu"><ul>{nav}</ul></nav>'
        f'<div class="story">{"".join(f"<p>{p}</p>" for p in paragraphs)}</div>'
        f'<aside class="related"><h3>More news</h3><ul>{related}</ul></aside>'
        f'<footer class="footer"><p>Copyright 2025 Site. All rights reserved.</p></footer>'
        "</body></html>"
    )
    return html, "\n\n".join(paragraphs)


def make_dataset(root: Path, pages: int, seed: int) -> None:
    rng = random.Random(seed)
    (root / "html").mkdir(parents=True)
    truth = {}
    for n in range(pages):
        html, gold = page(rng)
        (root / "html" / f"p{n}.html").write_text(html, encoding="utf-8")
        truth[f"p{n}"] = {"articleBody": gold, "url": f"https://site{n % 4}.example/a{n}"}
    (root / "ground-truth.json").write_text(json.dumps(truth), encoding="utf-8")


def test_train_writes_a_model_article_learned_uses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_dataset(tmp_path / "gold", 24, seed=1)
    out = tmp_path / "model.json.gz"
    argv = ["train", str(tmp_path / "gold"), "--out", str(out), "--folds", "2", "--trees", "20"]
    assert main([*argv, "--jobs", "1"]) == 0
    report = capsys.readouterr().out
    assert "24 pages" in report and "| all | 24 |" in report
    model = load_model(out)
    assert list(model.feature_names) == feature_names()
    assert {"threshold", "page_threshold", "forum_threshold", "cv_mean_f1"} <= set(model.metadata)
    assert model.metadata["trained_on"] == "gold"

    html, gold = page(random.Random(99))
    result = extract(html, extractor="article-learned", model=str(out))
    assert result.text == gold
    assert all(block.score is not None for block in result.blocks)


def make_typed_dataset(root: Path, types: list[str], seed: int) -> None:
    """The WCXB layout: ``html/<id>.html`` and ``ground-truth/<id>.json`` with a page type."""
    rng = random.Random(seed)
    (root / "html").mkdir(parents=True)
    (root / "ground-truth").mkdir()
    for n, page_type in enumerate(types):
        html, gold = page(rng)
        (root / "html" / f"p{n}.html").write_text(html, encoding="utf-8")
        truth = {
            "url": f"https://site{n % 4}.example/a{n}",
            "ground_truth": {"main_content": gold},
            "_internal": {"page_type": {"primary": page_type}},
        }
        (root / "ground-truth" / f"p{n}.json").write_text(json.dumps(truth), encoding="utf-8")


def test_train_on_some_page_types_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_typed_dataset(tmp_path / "gold", ["article"] * 12 + ["listing"] * 5, seed=3)
    out = tmp_path / "model.json.gz"
    argv = ["train", str(tmp_path / "gold"), "--out", str(out), "--folds", "2", "--trees", "10"]
    assert main([*argv, "--jobs", "1", "--page-types", "article"]) == 0
    report = capsys.readouterr().out
    assert "17 pages" in report and "training on the 12 pages of type article" in report
    assert "| article | 12 |" in report and "| listing | 5 |" in report  # all cross-validated
    model = load_model(out)
    assert model.metadata["page_types"] == ["article"] and model.metadata["pages"] == 12

    assert main([*argv, "--jobs", "1", "--page-types", "forum, product"]) == 2
    assert "no page of type forum, product" in capsys.readouterr().err


def test_train_on_several_datasets_reads_their_union(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_typed_dataset(tmp_path / "wcxb", ["article"] * 8 + ["listing"] * 4, seed=4)
    make_dataset(tmp_path / "news", 10, seed=5)
    out = tmp_path / "model.json.gz"
    argv = ["train", str(tmp_path / "wcxb"), str(tmp_path / "news"), "--out", str(out)]
    assert main([*argv, "--folds", "2", "--trees", "10", "--jobs", "1"]) == 0
    assert "22 pages" in capsys.readouterr().out
    model = load_model(out)
    assert model.metadata["trained_on"] == "wcxb+news" and model.metadata["pages"] == 22


def test_train_template_on_several_datasets_reports_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_typed_dataset(tmp_path / "wcxb", ["article"] * 8 + ["listing"] * 4, seed=4)
    make_dataset(tmp_path / "news", 10, seed=5)
    out = tmp_path / "template.json"
    argv = ["train", str(tmp_path / "wcxb"), str(tmp_path / "news"), "--out", str(out)]
    assert main([*argv, "--extractor", "page-template", "--folds", "2", "--jobs", "1"]) == 0
    report = capsys.readouterr().out
    assert "22 pages" in report
    assert "| all | 22 |" in report and "| wcxb | 12 |" in report and "| news | 10 |" in report
    model = load_template_model(str(out))
    assert model.metadata["trained_on"] == "wcxb+news" and model.metadata["pages"] == 22


def test_train_template_writes_a_model_page_template_uses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_dataset(tmp_path / "gold", 16, seed=2)
    out = tmp_path / "template.json"
    argv = ["train", str(tmp_path / "gold"), "--extractor", "page-template", "--out", str(out)]
    assert main([*argv, "--folds", "2", "--jobs", "1"]) == 0
    report = capsys.readouterr().out
    assert "16 pages" in report and "basic  (threshold" in report and "smooth (c " in report
    model = load_template_model(str(out))
    assert {"c", "threshold", "basic_threshold", "cv_words_f1"} <= set(model.metadata)
    assert model.metadata["trained_on"] == "gold"

    html, gold = page(random.Random(99))
    result = extract(html, extractor="page-template", model=str(out))
    assert gold.split("\n\n")[0] in result.text
    assert "Copyright 2025" not in result.text


def test_a_missing_model_fails_when_the_extractor_is_built(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot be built"):
        get_extractor("article-learned", model=str(tmp_path / "nope.json.gz"))


def test_train_on_a_missing_folder_is_an_error(tmp_path: Path) -> None:
    assert main(["train", str(tmp_path / "nope"), "--out", str(tmp_path / "m.json")]) == 2


def test_train_victor_on_a_cleaneval_layout_writes_a_model_victor_uses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pycrfsuite")
    from victor_support import synthetic_page

    data = tmp_path / "data"
    (data / "input").mkdir(parents=True)
    (data / "gold").mkdir()
    for number in range(6):
        html, gold = synthetic_page(number)
        wrapped = f'<text id="http://site{number}.example/" encoding="utf-8">{html}</text>'
        (data / "input" / f"{number}.html.gz").write_bytes(gzip.compress(wrapped.encode()))
        lines = [f"URL: http://site{number}.example/", *(f"<{c}> {t}" for c, t in gold)]
        (data / "gold" / f"{number}.txt.gz").write_bytes(gzip.compress("\n".join(lines).encode()))
    out = tmp_path / "victor.crf.gz"
    argv = ["train", str(data), "--extractor", "victor", "--folds", "2", "--out", str(out)]
    assert main(argv) == 0
    report = capsys.readouterr().out
    assert "6 pages" in report and "| all | 6 |" in report
    html, gold = synthetic_page(99)
    page = tmp_path / "page.html"
    page.write_text(f'<text id="http://x.example/a">{html}</text>', encoding="utf-8")
    args = ["extract", "--cleaneval", "--extractor", "victor", "-o", f"model={out}", str(page)]
    assert main(args) == 0
    expected = ["URL: http://x.example/a", *(f"<{code}> {text}" for code, text in gold)]
    assert capsys.readouterr().out.splitlines() == expected


def test_train_victor_on_several_datasets_reads_their_union(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pycrfsuite")
    from scrapy_boilerplate.classifiers.crf import load_victor_model

    make_typed_dataset(tmp_path / "wcxb", ["article"] * 4 + ["listing"] * 2, seed=6)
    make_dataset(tmp_path / "news", 5, seed=7)  # the article-benchmark format
    out = tmp_path / "victor.crf.gz"
    argv = ["train", str(tmp_path / "wcxb"), str(tmp_path / "news"), "--extractor", "victor"]
    assert main([*argv, "--folds", "2", "--out", str(out)]) == 0
    report = capsys.readouterr().out
    assert "11 pages" in report and "| all | 11 |" in report and "| listing | 2 |" in report
    assert "| source wcxb | 6 |" in report and "| source news | 5 |" in report
    model = load_victor_model(str(out))
    assert model.metadata["trained_on"] == "wcxb+news" and model.metadata["pages"] == 11

    html, gold = page(random.Random(99))
    result = extract(html, extractor="victor", model=str(out))
    assert gold.split("\n\n")[0] in result.text
    assert "Copyright 2025" not in result.text


def titled_page(rng: random.Random, n: int) -> tuple[str, str]:
    """A page whose gold title is its ``og:title``; the ``<h1>`` and ``<title>`` word it
    otherwise (a made-up site convention the ranker can learn)."""
    words = rng.sample(WORDS, 5)
    headline = " ".join(words).capitalize()
    html = (
        f"<html><head><title>{words[0].title()} news | Site{n}</title>"
        f'<meta property="og:title" content="{headline}"></head>'
        f"<body><h1>{' '.join(words[:2]).title()}</h1><p>{sentence(rng, 30)}</p></body></html>"
    )
    return html, headline


def test_train_title_writes_a_ranker_that_extract_can_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(3)
    root = tmp_path / "titled"
    (root / "html").mkdir(parents=True)
    truth = {}
    for n in range(40):
        html, headline = titled_page(rng, n)
        (root / "html" / f"p{n}.html").write_text(html, encoding="utf-8")
        truth[f"p{n}"] = {"title": headline, "url": f"https://site{n % 8}.example/a{n}"}
    (root / "ground-truth.json").write_text(json.dumps(truth), encoding="utf-8")
    out = tmp_path / "titles.json.gz"
    argv = ["train", str(root), "--extractor", "title", "--out", str(out)]
    assert main([*argv, "--folds", "2", "--jobs", "1"]) == 0
    report = capsys.readouterr().out
    assert "40 pages with a gold title" in report and "| titled | 40 |" in report
    from scrapy_boilerplate.classifiers.titles import load_title_model

    model = load_title_model(str(out))
    assert model.metadata["trained_on"] == "titled" and model.metadata["cv_accuracy"] > 0.9


def test_train_title_without_gold_titles_is_an_error(tmp_path: Path) -> None:
    make_dataset(tmp_path / "untitled", 4, seed=1)
    out = tmp_path / "titles.json.gz"
    argv = ["train", str(tmp_path / "untitled"), "--extractor", "title", "--out", str(out)]
    assert main([*argv, "--folds", "0", "--jobs", "1"]) == 2
    assert not out.exists()
