"""Tokenisation and word statistics (reference §2 and §3.1 examples).

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import pytest

from scrapy_boilerplate.page.tokens import (
    LINK_END,
    LINK_START,
    drop_format_characters,
    is_word,
    shows_nothing,
    tokenize,
    unmark,
    word_stats,
)


def density(text: str) -> float:
    stats = word_stats(text)
    return stats.wrapped_words / stats.wrapped_lines


@pytest.mark.parametrize(
    "token",
    ["e-mail", "U.S.A.,", "3,000", "don't", "(Reuters)", "foo/bar", "$5.00", "a...b", "x_y"],
)
def test_glue_characters_do_not_split(token: str) -> None:
    assert tokenize(token) == [token]
    assert word_stats(token).words == 1


@pytest.mark.parametrize(
    ("text", "tokens", "words"),
    [
        ("AT&T", ["AT", "&", "T"], 2),
        ("it\u2019s", ["it", "\u2019", "s"], 2),
        ("50%", ["50", "%"], 1),
        ("\u00abquoted\u00bb", ["\u00ab", "quoted", "\u00bb"], 1),
    ],
)
def test_other_characters_split_words(text: str, tokens: list[str], words: int) -> None:
    assert tokenize(text) == tokens
    assert word_stats(text).words == words


def test_spacing_marks_split_but_non_spacing_marks_stay_in_the_word() -> None:
    # Devanagari: vowel signs (Mc) split the word, the virama (Mn) after a letter does not.
    hindi = "\u0939\u093f\u0928\u094d\u0926\u0940"
    assert tokenize(hindi) == ["\u0939", "\u093f", "\u0928\u094d\u0926", "\u0940"]
    assert word_stats(hindi).words == 2
    # Arabic short vowels are Mn: a vocalised word stays one word.
    arabic = "\u0643\u064e\u062a\u064e\u0628\u064e \u0627\u0644\u0648\u064e\u0644\u064e\u062f\u064f"
    assert word_stats(arabic).words == 2
    assert tokenize("cafe\u0301 au lait") == ["cafe\u0301", "au", "lait"]


def test_the_sixteen_word_sentence() -> None:
    sentence = (
        "Third paragraph: it\u2019s got a curly apostrophe, AT&T, e-mail, U.S.A., 3,000 and "
        "don't \u2014 dashes."
    )
    assert word_stats(sentence).words == 16


@pytest.mark.parametrize("token", ["|", "\u00bb", "\u00a9", "\u2014", "\u00a0", "--", "_"])
def test_non_word_tokens(token: str) -> None:
    assert not is_word(token)
    assert word_stats(token).words == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (" ".join(["abcd"] * 20), 16),
        (" ".join(["word"] * 100), 16),
        (" - ".join(["ab"] * 30), 27),  # hyphens add no width
        ("x" * 90 + " " + " ".join(["ab"] * 10), 0.5),  # Q8: an over-long first token wraps
    ],
)
def test_text_density_examples(text: str, expected: float) -> None:
    assert density(text) == expected


def test_one_line_block_density_is_its_word_count() -> None:
    stats = word_stats("a short line of seven words here")
    assert (stats.words, stats.wrapped_words, stats.wrapped_lines) == (7, 7, 1)


def test_link_markers_count_linked_words_and_carry_state() -> None:
    stats = word_stats(f"see {LINK_START} the link {LINK_END} here")
    assert (stats.words, stats.linked_words, stats.in_link_after) == (4, 2, False)
    open_link = word_stats(f"before {LINK_START} inside")
    assert (open_link.linked_words, open_link.in_link_after) == (1, True)
    assert word_stats("continued words", in_link=True).linked_words == 2


# --- scripts without spaces, page characters equal to markers, long runs --------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("日本語の文章です", 4),  # Japanese: 8 letters, one word per two
        ("本市今天宣布了一项新的计划", 7),  # Chinese: 13 ideographs
        ("서울시는 도심의 계획을", 6),  # Korean: runs of 4, 3 and 3 syllables
        ("ที่ไม่มี", 2),  # Thai: 4 letters, the marks stay with their letters
        ("iPhone用の", 1),  # a run of two letters is not cut
        ("東京。大阪", 2),  # CJK punctuation separates like any "other" character
    ],
)
def test_scripts_without_spaces_count_one_word_per_two_letters(text: str, words: int) -> None:
    assert word_stats(text).words == words


def test_paired_tokens_keep_their_marks() -> None:
    assert tokenize("ภาษาไทย") == ["ภา", "ษา", "ไท", "ย"]
    assert tokenize("がっこう") == ["がっ", "こう"]
    assert tokenize("ก\u0e34\u0e48ข") == ["ก\u0e34\u0e48ข"]  # two letters, marks between


def test_unmark_replaces_page_characters_equal_to_markers() -> None:
    assert unmark(f"a{LINK_START}b{LINK_END}c") == "a\ufffdb\ufffdc"
    assert unmark("plain") == "plain"


def test_a_long_run_without_word_characters_is_counted_quickly() -> None:
    # Once quadratic (18 s for 40,000 characters); the count must not change.
    stats = word_stats("a\xa0b " + "-" * 200_000)
    assert (stats.words, stats.word_chars) == (1, 3)


@pytest.mark.parametrize("text", ["\u200b", "\u200b \u200c", "\ufeff\xa0", "\u00ad", "\u2060"])
def test_format_characters_and_spaces_show_nothing(text: str) -> None:
    assert shows_nothing(text)


@pytest.mark.parametrize("text", ["", " ", "\xa0", "a\u200b", "7\u200b", "\u200b.", "\u200bx"])
def test_text_or_mere_whitespace_is_not_format_characters_only(text: str) -> None:
    assert not shows_nothing(text)


def test_dropping_format_characters_keeps_link_markers() -> None:
    buffer = f"{LINK_START} \u200b {LINK_END} "
    assert drop_format_characters(buffer) == f"{LINK_START}  {LINK_END} "
