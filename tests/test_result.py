"""ExtractionResult: pickling keeps everything, and defers the blocks until they are read; every
extractor fills the article metadata."""

from __future__ import annotations

import pickle

import pytest

from scrapy_boilerplate import ArticleMetadata, available_extractors, extract
from scrapy_boilerplate.model.result import ExtractionResult

PAGE = (
    "<html lang='en'><head><title>Site | Story</title>"
    "<meta name='author' content='Anna Weber'><link rel='canonical' href='/story'></head>"
    "<body><nav><a href='/'>Home</a><time datetime='2020-01-01'>old</time></nav>"
    "<article><h1>Story</h1><time datetime='2025-03-03T08:00:00Z'>3 March</time><p>"
    + "A sentence with enough words to be content. " * 8
    + "</p></article><footer>Contact us</footer></body></html>"
)
METADATA = ArticleMetadata(
    published="2025-03-03T08:00:00+00:00",  # the <time> of the article, not of the menu
    published_raw="2025-03-03T08:00:00Z",
    authors=("Anna Weber",),
    language="en",
    canonical_url="http://example.com/story",
)


def picklable_result() -> ExtractionResult:
    return extract(PAGE, "http://example.com/story", metadata=True)


def test_round_trip_keeps_fields_and_blocks_but_not_dom_references() -> None:
    result = picklable_result()
    assert all(block.elements for block in result.blocks)
    copy = pickle.loads(pickle.dumps(result))
    assert copy.to_dict() == result.to_dict()
    assert [block.labels for block in copy.blocks] == [block.labels for block in result.blocks]
    assert not any(block.elements for block in copy.blocks)
    assert [b.is_content for b in copy.content_blocks] == [
        b.is_content for b in result.content_blocks
    ]


def test_blocks_are_unpickled_on_first_use_only() -> None:
    copy = pickle.loads(pickle.dumps(picklable_result()))
    assert "blocks" not in vars(copy)
    assert copy.text and copy.title == "Story"  # no blocks needed for these
    assert "blocks" not in vars(copy)
    first = copy.blocks
    assert first and copy.blocks is first  # decoded once, then an ordinary attribute


def test_unread_blocks_survive_a_second_pickling() -> None:
    twice = pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(picklable_result()))))
    assert twice.to_dict() == picklable_result().to_dict()


def test_changes_to_decoded_blocks_are_kept() -> None:
    copy = pickle.loads(pickle.dumps(picklable_result()))
    copy.blocks[0].is_content = not copy.blocks[0].is_content
    again = pickle.loads(pickle.dumps(copy))
    assert again.blocks[0].is_content == copy.blocks[0].is_content


def test_unknown_attributes_still_raise() -> None:
    copy = pickle.loads(pickle.dumps(picklable_result()))
    with pytest.raises(AttributeError, match="no_such_attribute"):
        copy.no_such_attribute  # noqa: B018


def test_metadata_survives_pickling_and_is_in_the_dict() -> None:
    result = picklable_result()
    assert result.metadata == METADATA
    assert pickle.loads(pickle.dumps(result)).metadata == METADATA
    assert result.to_dict(include_blocks=False)["metadata"] == {
        "published": "2025-03-03T08:00:00+00:00",
        "published_raw": "2025-03-03T08:00:00Z",
        "authors": ["Anna Weber"],
        "language": "en",
        "canonical_url": "http://example.com/story",
    }


def test_metadata_is_not_read_when_switched_off() -> None:
    result = extract(PAGE, "http://example.com/story", metadata=False)
    assert result.metadata is None
    assert result.to_dict(include_blocks=False)["metadata"] is None
    assert result.text == picklable_result().text


@pytest.mark.parametrize("name", sorted(available_extractors()))
def test_every_extractor_reads_the_metadata_when_asked(name: str) -> None:
    assert extract(PAGE, "http://example.com/story", extractor=name).metadata is None
    result = extract(PAGE, "http://example.com/story", extractor=name, metadata=True)
    assert result.metadata is not None
    assert result.metadata.canonical_url == METADATA.canonical_url
    assert result.metadata.authors == METADATA.authors


def test_the_page_type_survives_pickling_and_is_in_the_dict() -> None:
    result = extract("<html><body><p>" + "A plain paragraph of words. " * 30 + "</p></body></html>")
    assert result.page_type is not None and result.page_type_confidence is not None
    data = pickle.loads(pickle.dumps(result)).to_dict(include_blocks=False)
    assert (data["page_type"], data["page_type_confidence"]) == (
        result.page_type,
        result.page_type_confidence,
    )
    rules = extract("<html><body><p>Words here.</p></body></html>", extractor="article-rules")
    assert rules.to_dict(include_blocks=False)["page_type"] is None
