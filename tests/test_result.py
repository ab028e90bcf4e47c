"""ExtractionResult: pickling keeps everything, and defers the blocks until they are read."""

from __future__ import annotations

import pickle

import pytest

from scrapy_boilerplate import extract
from scrapy_boilerplate.model.result import ExtractionResult

PAGE = (
    "<html><head><title>Site | Story</title></head><body><nav><a href='/'>Home</a></nav>"
    "<article><h1>Story</h1><p>" + "A sentence with enough words to be content. " * 8 + "</p>"
    "</article><footer>Contact us</footer></body></html>"
)


def picklable_result() -> ExtractionResult:
    return extract(PAGE, "http://example.com/story")


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
