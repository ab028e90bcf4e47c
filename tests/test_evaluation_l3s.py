"""Tests of the L3S-GN1 reader: block labels from annotation spans, gold text, page loading."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.evaluation.l3s import (
    L3SLabel,
    four_class,
    label_blocks,
    read_url_mapping,
    segment_annotated,
    two_class,
)

ANNOTATED = """<html><head><title>Cats</title>
<style>.x-nc-sel1 { display:block }</style></head><body>
<div><span class="x-nc-sel0"><a href="/">Home</a> <a href="/w">World</a></span></div>
<h1><span class="x-nc-sel1">Cat sits on mat</span></h1>
<p><span class="x-nc-sel2">The cat sat on the mat all day long.</span></p>
<p><span class="x-nc-sel2">It was <b>very</b> happy there.</span>
   <span class="x-nc-sel0">Advertisement</span></p>
<p><span class="x-nc-sel3">Photo: a cat</span></p>
<script><span class="x-nc-sel2">not text</span></script>
<p>Unselected footer text</p>
<ul><li><span class="x-nc-sel4"><a href="/r">Dogs bark</a></span></li></ul>
<div><span class="x-nc-sel5">Nice <span class="x-nc-sel0">[report]</span> cat!</span></div>
</body></html>"""


def test_blocks_take_the_label_of_their_span():
    doc, labels = label_blocks(ANNOTATED)
    texts = [block.text for block in doc.blocks]
    assert texts == [
        "Home World",
        "Cat sits on mat",
        "The cat sat on the mat all day long.",
        "It was very happy there. Advertisement",
        "Photo: a cat",
        "Unselected footer text",
        "Dogs bark",
        "Nice [report] cat!",
    ]
    assert labels == [
        L3SLabel.NOT_CONTENT,
        L3SLabel.HEADLINE,
        L3SLabel.FULL_TEXT,
        L3SLabel.FULL_TEXT,  # 5 full-text words beat 1 not-content word
        L3SLabel.SUPPLEMENTAL,
        L3SLabel.NOT_CONTENT,  # text in no span
        L3SLabel.RELATED_CONTENT,
        L3SLabel.COMMENTS,  # innermost span wins per piece: 2 comment words vs 1
    ]


def test_markers_do_not_change_block_statistics():
    annotated, _ = label_blocks(ANNOTATED)
    plain = ANNOTATED.replace('class="x-nc-sel', 'class="other')
    reference, _ = label_blocks(plain)
    assert [b.num_words for b in annotated.blocks] == [b.num_words for b in reference.blocks]
    assert [b.num_linked_words for b in annotated.blocks] == [
        b.num_linked_words for b in reference.blocks
    ]
    assert [b.text_density for b in annotated.blocks] == [b.text_density for b in reference.blocks]


def test_tree_text_is_restored_after_labelling():
    annotated = segment_annotated(ANNOTATED)
    root = annotated.doc.root
    assert root is not None
    all_text = "".join(root.itertext())
    assert not any(0xE100 <= ord(char) <= 0xE105 for char in all_text)


def test_gold_text_keeps_content_pieces_only():
    annotated = segment_annotated(ANNOTATED)
    assert annotated.text_of().split("\n") == [
        "Cat sits on mat",
        "The cat sat on the mat all day long.",
        "It was very happy there.",
        "Photo: a cat",
        "Nice cat!",
    ]


def test_two_and_four_class_mappings():
    assert [two_class(label) for label in L3SLabel] == [0, 1, 1, 1, 0, 1]
    assert [four_class(label) for label in L3SLabel] == [0, 2, 1, 3, 0, 1]


def _write_collection(root: Path) -> None:
    (root / "annotated").mkdir(parents=True)
    (root / "original").mkdir()
    original = ANNOTATED.replace("<head>", '<head><meta charset="iso-8859-1">').replace(
        "Cat sits", "Caf\u00e9 cat sits"
    )
    for name in ("b-2", "a-1"):
        with gzip.open(root / "annotated" / f"{name}.html.gz", "wb") as handle:
            handle.write(ANNOTATED.encode("ascii"))
        with gzip.open(root / "original" / f"{name}.html.gz", "wb") as handle:
            handle.write(original.encode("iso-8859-1"))
    (root / "url-mapping.txt").write_text("<urn:uuid:a-1>\thttp://example.com/a\n")


def test_load_pages_from_a_tiny_collection(tmp_path: Path):
    _write_collection(tmp_path)
    assert read_url_mapping(tmp_path) == {"a-1": "http://example.com/a"}
    pages = list(load_pages(tmp_path))
    assert [page.id for page in pages] == ["a-1", "b-2"]
    first = pages[0]
    assert first.url == "http://example.com/a" and pages[1].url is None
    assert first.title == "Cat sits on mat"
    assert first.gold_text.startswith("Cat sits on mat\nThe cat sat")
    assert "Caf\u00e9".encode("iso-8859-1") in first.html  # original bytes, own charset
    assert [page.id for page in load_pages(tmp_path, limit=1)] == ["a-1"]
    assert [page.id for page in load_pages(tmp_path)] == ["a-1", "b-2"]


def _l3s_root() -> Path:
    root = SHARED_DATASETS / "l3s-gn1"
    if not (root / "annotated").is_dir():
        pytest.skip("L3S-GN1 dataset not available")
    return root


def test_real_collection_first_pages():
    root = _l3s_root()
    pages = list(load_pages(root, limit=3))
    assert len(pages) == 3
    for page in pages:
        assert page.url and page.url.startswith("http")
        assert len(page.gold_text.split()) > 20
    assert [page.id for page in load_pages(root, limit=2)] == [page.id for page in pages[:2]]
