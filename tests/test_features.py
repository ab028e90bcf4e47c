"""Tests of the shallow text features on tiny pages with hand-computed values."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.features import (
    BLOCK_FEATURES,
    FLOW_FEATURES,
    FeatureSet,
    block_features,
    feature_names,
    text_stats,
)
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

PAGE = (
    "<html><body>"
    "<h1>Big News Today</h1>"
    "<div><p>The cat sat on the mat. It was 12:30 on Monday, May 5th 2008! "
    "<a href='x'>Read more</a></p></div>"
    "<ul><li><a href='a'>Home</a> | <a href='b'>World</a></li></ul>"
    "</body></html>"
)


ALL_SETS = (FeatureSet.PREVIOUS, FeatureSet.CURRENT, FeatureSet.NEXT, FeatureSet.FLOW)


def rows_by_name(html: str, sets=ALL_SETS) -> list[dict[str, float]]:
    doc = segment(parse_html(html))
    names = feature_names(sets)
    return [dict(zip(names, row, strict=True)) for row in block_features(doc, sets)]


def test_text_stats_counts_words_sentences_and_tokens():
    stats = text_stats("The cat sat on the mat. It was 12:30 on Monday, May 5th 2008! Read more")
    assert stats.words == 16
    # "mat." and "2008!" end sentences, "Read more" is an open last sentence
    assert stats.sentences == 3
    assert stats.start_uppercase == 5  # The It Monday May Read
    assert stats.full_stops == 1
    assert stats.date_tokens == 5  # 12:30 Monday May 5th 2008 (lowercase "sat" is no weekday)
    assert stats.vertical_bars == 0


def test_text_stats_uppercase_and_bars():
    stats = text_stats("NASA | ESA news (Reuters) 3 a.m. GMT")
    assert stats.words == 7  # NASA ESA news (Reuters) 3 a.m. GMT
    assert stats.all_uppercase == 3  # NASA ESA GMT; "3" has no letter
    assert stats.start_uppercase == 4  # NASA ESA (Reuters) GMT
    assert stats.vertical_bars == 1
    assert stats.date_tokens == 2  # a.m. GMT
    assert stats.full_stops == 1


def test_current_block_features_hand_computed():
    heading, paragraph, links = rows_by_name(PAGE)
    assert heading["curr_num_words"] == 3
    assert heading["curr_avg_word_length"] == pytest.approx(12 / 3)
    assert heading["curr_avg_sentence_length"] == 3
    assert heading["curr_start_uppercase_ratio"] == 1
    assert heading["curr_in_h1"] == 1 and heading["curr_in_p"] == 0 and heading["curr_in_a"] == 0

    assert paragraph["curr_num_words"] == 16
    assert paragraph["curr_avg_word_length"] == pytest.approx(56 / 16)
    assert paragraph["curr_avg_sentence_length"] == pytest.approx(16 / 3)
    assert paragraph["curr_start_uppercase_ratio"] == pytest.approx(5 / 16)
    assert paragraph["curr_full_stop_ratio"] == pytest.approx(1 / 16)
    assert paragraph["curr_num_date_tokens"] == 5
    assert paragraph["curr_link_density"] == pytest.approx(2 / 16)
    assert paragraph["curr_text_density"] == 16  # one 80-column line
    assert paragraph["curr_absolute_position"] == 1
    assert paragraph["curr_relative_position"] == pytest.approx(1 / 3)
    assert (paragraph["curr_in_p"], paragraph["curr_in_div"], paragraph["curr_in_a"]) == (1, 1, 1)
    assert paragraph["curr_in_h1"] == 0

    assert links["curr_num_vertical_bars"] == 1
    assert links["curr_link_density"] == 1
    assert links["curr_in_a"] == 1 and links["curr_in_div"] == 0


def test_neighbour_features_and_edges_are_empty_blocks():
    heading, paragraph, links = rows_by_name(PAGE)
    assert heading["prev_num_words"] == 0 and heading["prev_text_density"] == 0
    assert heading["next_num_words"] == 16 and heading["next_in_p"] == 1
    assert paragraph["prev_num_words"] == 3 and paragraph["next_num_words"] == 2
    assert paragraph["prev_in_h1"] == 1 and paragraph["next_link_density"] == 1
    assert links["next_num_words"] == 0 and links["next_in_a"] == 0


def test_flow_features_relate_current_to_previous():
    heading, paragraph, _ = rows_by_name(PAGE)
    assert paragraph["flow_text_density_quotient"] == pytest.approx(3 / 16)
    assert paragraph["flow_text_density_delta"] == pytest.approx(16 - 3)
    assert paragraph["flow_num_words_quotient"] == pytest.approx(3 / 16)
    assert heading["flow_text_density_delta"] == 3


def test_text_density_of_wrapped_block():
    sentence = "word " * 40  # 40 four-letter words: 16 per 80-column line, 3 lines
    (row,) = rows_by_name(f"<html><body><p>{sentence}</p></body></html>", [FeatureSet.CURRENT])
    assert row["curr_num_words"] == 40
    assert row["curr_text_density"] == 16  # last incomplete line (8 words) dropped


def test_feature_names_and_selection():
    names = feature_names()
    assert len(names) == len(BLOCK_FEATURES) * 3 - 4  # positions only for the current block
    assert "prev_absolute_position" not in names and "curr_relative_position" in names
    assert feature_names([FeatureSet.FLOW]) == [f"flow_{name}" for name in FLOW_FEATURES]
    selected = feature_names(features=["num_words", "link_density"])
    assert selected == [
        "prev_num_words",
        "prev_link_density",
        "curr_num_words",
        "curr_link_density",
        "next_num_words",
        "next_link_density",
    ]
    doc = segment(parse_html(PAGE))
    rows = block_features(doc, features=["num_words", "link_density"])
    assert rows[1] == [3.0, 0.0, 16.0, pytest.approx(0.125), 2.0, 1.0]
    with pytest.raises(ValueError):
        feature_names(features=["no_such_feature"])


def test_empty_document_has_no_rows():
    doc = segment(parse_html("<html><body><img src='x'></body></html>"))
    assert block_features(doc) == []
