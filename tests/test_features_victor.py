"""Victor's block features (Marek 2007, §4), feature by feature on hand-written pages."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.features.victor import (
    CONTENT_FEATURES,
    DOCUMENT_FEATURES,
    EXTRA_FEATURES,
    FEATURE_NAMES,
    MARKUP_FEATURES,
    THESIS_FEATURES,
    bullet_code,
    quantise,
    scaled,
    token_class,
    victor_features,
)
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.victor import victor_blocks


def features(html: str) -> list[dict[str, int]]:
    """Per block of ``html``, its feature values by name."""
    rows = victor_features(victor_blocks(parse_html(html)))
    return [dict(zip(FEATURE_NAMES, row, strict=True)) for row in rows]


def block_feature(html: str, name: str, index: int = 0) -> int:
    return features(html)[index][name]


def test_feature_inventory() -> None:
    assert len(THESIS_FEATURES) == 46
    assert set(FEATURE_NAMES) == set(MARKUP_FEATURES) | set(CONTENT_FEATURES) | set(
        DOCUMENT_FEATURES
    )
    assert len(set(FEATURE_NAMES)) == len(FEATURE_NAMES) == 46 + len(EXTRA_FEATURES)


# --- quantisers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"), [(0, 0), (0.5, 0), (1, 1), (2, 2), (2.9, 2), (3, 3), (4, 3), (99, 3)]
)
def test_quantise_takes_the_largest_value_not_above(value: float, expected: int) -> None:
    assert quantise(value, (1, 2, 3)) == expected


@pytest.mark.parametrize(
    ("part", "whole", "expected"),
    [(0, 10, 0), (1, 11, 1), (0.99, 11, 0), (5, 11, 5), (10, 11, 10), (11, 11, 10), (3, 0, 0)],
)
def test_scaled_levels(part: float, whole: float, expected: int) -> None:
    assert scaled(part, whole) == expected


# --- markup features ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "name"),
    [
        ("<p>x</p>", "container.p"),
        ("<a href='#'>x</a>", "container.a"),
        ("<u>x</u>", "container.u"),
        ("<img alt='x'>", "container.img"),
        ("<ul><li>x</li></ul>", "container.li"),
        ("<table><tr><td>x</td></tr></table>", "container.td"),
        ("<blockquote>x</blockquote>", "container.blockquote"),
        ("<pre>x</pre>", "container.pre"),
        ("<h4>x</h4>", "container.class-header"),
        ("<strong>x</strong>", "container.class-bold"),
        ("<em>x</em>", "container.class-italic"),
        ("<dl><dd>x</dd></dl>", "container.class-list"),
        ("<form><label>x</label></form>", "container.class-form"),
    ],
)
def test_container_features(html: str, name: str) -> None:
    assert block_feature(f"<div>{html}</div>", name) == 1
    assert block_feature("<div><span>x</span></div>", name) == 0


def test_container_features_look_at_every_ancestor() -> None:
    values = features("<h2><a href='#'><b>x</b></a></h2>")[0]
    assert values["container.class-header"] == values["container.a"] == 1
    assert values["container.class-bold"] == 1
    assert values["container.p"] == 0


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("a<p>b</p>", {"split.p": 1, "split.class-block": 1}),
        ("<p>a</p><p>b</p>", {"split.p": 2, "split.class-block": 2}),
        ("<p>a</p><div><p>b</p></div>", {"split.p": 2, "split.class-block": 2}),  # 3 tags
        ("a<br>b", {"split.br": 1, "split.class-block": 1}),
        ("a<br><br>b", {"split.br": 2, "split.class-block": 2}),
        ("a<br><br><br><br>b", {"split.br": 3, "split.class-block": 4}),
        ("a<hr>b", {"split.hr": 1, "split.class-block": 1}),
        ("a <b><i>b", {"split.class-inline": 2}),
        ("a<b><i><span>b", {"split.class-inline": 2, "glued": 1}),
        (
            "a</i></b></span><u><em><a href='#'><font><small>b",
            {"split.class-inline": 4, "glued": 1},
        ),
        (
            "<div><div><div><div><div><div><div><div><div>a" + "</div>" * 9 + "<p>b",
            {"split.class-block": 8, "split.p": 1},
        ),
    ],
)
def test_split_features(html: str, expected: dict[str, int]) -> None:
    values = features(f"<body>{html}</body>")[1]
    names = ("split.p", "split.br", "split.hr", "split.class-inline", "split.class-block", "glued")
    assert {name: values[name] for name in names} == dict.fromkeys(names, 0) | expected


# --- content features ---------------------------------------------------------------------------


def test_char_class_levels() -> None:
    # 20 characters: 10 letters, 4 digits, 2 punctuation, 2 spaces, 2 other
    values = features("<p>abcde 12.fghij 34!$%</p>")[0]
    assert len("abcde 12.fghij 34!$%") == 20
    assert values["char.alpha-rel"] == scaled(10, 20) == 5
    assert values["char.num-rel"] == scaled(4, 20) == 2
    assert values["char.punct-rel"] == scaled(2, 20) == 1
    assert values["char.white-rel"] == scaled(2, 20) == 1
    assert values["char.other-rel"] == scaled(2, 20) == 1


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("word", "alpha"),
        ("(don't).", "alpha"),
        ("e.g.", "alpha"),
        ("1,000.50", "num"),
        ("12/05/2007", "num"),
        ("mp3", "mix"),
        ("B2B,", "mix"),
        ("a@b", "other"),
        ("C++", "alpha"),
        ("x_y", "other"),
        ("--", None),
        ("!", None),
    ],
)
def test_token_classes(token: str, expected: str | None) -> None:
    assert token_class(token) == expected


def test_token_features() -> None:
    # 4 counted tokens: 2 alpha, 1 num, 1 mix (the dash is not counted)
    values = features("<p>Two words - 42 mp3</p>")[0]
    assert values["token.alpha-abs"] == 2
    assert values["token.num-abs"] == values["token.mix-abs"] == 1
    assert values["token.other-abs"] == 0
    assert values["token.alpha-rel"] == scaled(2, 4) == 5
    assert values["token.num-rel"] == values["token.mix-rel"] == scaled(1, 4) == 2
    assert values["token.other-rel"] == 0


@pytest.mark.parametrize(("words", "level"), [(1, 1), (4, 3), (7, 5), (12, 8), (79, 40), (80, 80)])
def test_token_abs_value_list(words: int, level: int) -> None:
    assert block_feature("<p>" + "word " * words + "</p>", "token.alpha-abs") == level


@pytest.mark.parametrize(
    ("text", "count", "avg_length"),
    [
        ("no sentence end here", 0, 3),  # 4 words / max(1, 0) -> 3
        ("One. Two words! Three? Four", 3, 1),  # 5 words / 3 -> 1
        ('He said "stop." Then (left.)', 2, 1),  # 5 words / 2 -> 1 (2.5 -> 1)
        ("A sentence of exactly eight words is here.", 1, 8),
    ],
)
def test_sentence_count_and_average_length(text: str, count: int, avg_length: int) -> None:
    values = features(f"<p>{text}</p>")[0]
    assert values["sentence.count"] == count
    assert values["sentence.avg-length"] == avg_length


@pytest.mark.parametrize(
    ("text", "begin", "end"),
    [
        ("The end.", 1, 1),
        ("continued here", 0, 0),
        ('"Quoted start?"', 1, 1),
        ("2007 was a year!)", 1, 1),
        ("ends with colon:", 0, 0),
        ("(Bracketed)", 1, 0),
    ],
)
def test_sentence_begin_and_end(text: str, begin: int, end: int) -> None:
    values = features(f"<p>{text}</p>")[0]
    assert (values["sentence-begin"], values["sentence-end"]) == (begin, end)


def test_duplicates_ignore_case_space_and_non_letters() -> None:
    html = (
        "<p>Read more</p><p>read  more!</p><p>Unique</p><p>READ-MORE 2</p><p>Unique</p><p>123</p>"
    )
    values = features(html)
    assert [v["duplicate-count"] for v in values] == [3, 3, 2, 3, 2, 0]
    assert [v["first-duplicate"] for v in values] == [1, 0, 1, 0, 0, 0]


def test_duplicate_count_value_list() -> None:
    values = features("<p>same</p>" * 7)
    assert {v["duplicate-count"] for v in values} == {5}


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("see https://example.org/x", "regexp.url", 1),
        ("see www.example.org", "regexp.url", 2),
        ("mail me@example.org now", "regexp.url", 3),
        ("at example.com", "regexp.url", 4),
        ("plain words", "regexp.url", 0),
        ("on 2007-05-12", "regexp.date", 1),
        ("on 12.05.2007", "regexp.date", 2),
        ("on May 12, 2007", "regexp.date", 3),
        ("on 12th May 2007", "regexp.date", 4),
        ("in September 2007", "regexp.date", 5),
        ("posted Tuesday", "regexp.date", 6),
        ("no date 12", "regexp.date", 0),
        ("at 10:30 pm", "regexp.time", 1),
        ("at 10:30:15", "regexp.time", 2),
        ("at 9 a.m.", "regexp.time", 3),
        ("at nine", "regexp.time", 0),
    ],
)
def test_regexp_features_give_the_first_matching_pattern(
    text: str, name: str, expected: int
) -> None:
    assert block_feature(f"<p>{text}</p>", name) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1. First", 11),
        ("12) Twelfth", 12),
        ("3: third", 13),
        ("4 Introduction", 10),
        ("a) item", 22),
        ("B. item", 31),
        ("a word", 0),
        ("I think", 0),
        ("• item", 40),
        ("- item", 40),
        ("» more", 40),
        ("-5 degrees", 0),
        ("plain", 0),
    ],
)
def test_bullet_codes(text: str, expected: int) -> None:
    assert bullet_code(text) == expected
    assert block_feature(f"<p>{text}</p>", "bullet") == expected


def test_group_word_ratios_count_words_outside_links() -> None:
    # div 1: a (1 word), div 2: b c (2 words) + link (not counted), div 3: d e f g h i j (7)
    html = (
        "<div>a<div>b c <a href='#'>link words here</a></div>"
        "<div>d e f g h i j</div></div><p>outside</p>"
    )
    values = features(html)
    by_text = dict(zip(["a", "b c", "link", "d", "outside"], values, strict=True))
    total = 1 + 2 + 7 + 1
    assert by_text["a"]["div-group.word-ratio"] == scaled(1, total) == 1
    assert by_text["b c"]["div-group.word-ratio"] == scaled(2, total) == 2
    assert by_text["link"]["div-group.word-ratio"] == scaled(2, total)
    assert by_text["d"]["div-group.word-ratio"] == scaled(7, total) == 7
    assert by_text["outside"]["div-group.word-ratio"] == 0
    assert {v["document.max-div-group"] for v in values} == {7}
    assert {v["td-group.word-ratio"] for v in values} == {0}
    assert {v["document.max-td-group"] for v in values} == {0}


def test_td_group_word_ratio() -> None:
    html = "<table><tr><td>one two three</td><td>four</td></tr></table>"
    values = features(html)
    assert [v["td-group.word-ratio"] for v in values] == [scaled(3, 4), scaled(1, 4)] == [8, 2]
    assert {v["document.max-td-group"] for v in values} == {8}


# --- document features --------------------------------------------------------------------------


def test_position_levels() -> None:
    values = features("".join(f"<p>block {i}</p>" for i in range(11)))
    assert [v["position"] for v in values] == list(range(11))


def test_document_counts() -> None:
    html = "<p>" + "One sentence here. " * 40 + "</p>" + "<p>x</p>" * 30
    values = features(html)
    # 120 + 30 words, 40 sentences, 31 blocks
    assert {v["document.word-count"] for v in values} == {100}
    assert {v["document.sentence-count"] for v in values} == {30}
    assert {v["document.block-count"] for v in values} == {30}
    small = features("<p>tiny</p>")[0]
    assert small["document.word-count"] == small["document.sentence-count"] == 0
    assert small["document.block-count"] == 0


def test_every_value_is_a_small_non_negative_integer() -> None:
    html = (
        "<div><h1>Title</h1><p>Text with a <a href='http://x.org'>link</a>, 3 numbers 4 5.</p>"
        "<ul><li>1. item</li></ul><table><tr><td>cell 10:30</td></tr></table><pre>a\nb</pre></div>"
    )
    for row in victor_features(victor_blocks(parse_html(html))):
        assert all(isinstance(value, int) and 0 <= value <= 3000 for value in row)


# The text features have fast paths (ASCII counting by deleting bytes, regex searches skipped
# when a pattern's literal is absent); they must give what the plain definitions give.
TRICKY_TEXTS = [
    "Visit WWW.Example.COM today",
    "mail me: Jane.Doe@example.org",
    "see http://x.y/z or ftp://a.b",
    "example.co.uk and example.INFO and x.Biz",
    "İNFO: the site.İnfo and site.ınfo, bız.ı",
    "the kelvin.uK sign and café.de",
    "10:30 PM, 9 A.M., 11:15:01",
    "12 pm",
    "12² and ٣ and １２:３０ pm",
    "Tueſday, 5 Sept. 2007",
    "file.txt and v1.2.3 and e.g. this",
    "ÉTÉ à Paris — 14 juillet 2007.",
    "\x1c sep",
    "on 2007-05-12 and 12/05/07, 1.2.2007",
    "May 5, 2007 or 5th May 2007 or in September 2007",
    "posted Tuesday at 5",
    "-5 and 1.5 and 3/4 and 12-13-2007x",
]


@pytest.mark.parametrize("text", TRICKY_TEXTS)
def test_text_fast_paths_give_the_plain_definitions(text: str) -> None:
    import re

    from scrapy_boilerplate.features import victor as module

    values = module._TextValues(text)
    length = len(text)
    alpha = sum(map(str.isalpha, text))
    num = sum(map(str.isdigit, text))
    white = sum(map(str.isspace, text))
    punct = sum(char in ",:;.?!" for char in text)
    other = length - alpha - num - punct - white
    assert values.head[:5] == tuple(scaled(n, length) for n in (alpha, num, punct, white, other))
    assert values.key == "".join(re.findall(r"[^\W\d_]+", text)).casefold()

    def first(patterns: tuple[re.Pattern[str], ...]) -> int:
        return next((i for i, p in enumerate(patterns, 1) if p.search(text)), 0)

    assert values.tail[0] == first(module.URL_PATTERNS)
    assert values.tail[1] == first(module.DATE_PATTERNS)
    assert values.tail[2] == first(module.TIME_PATTERNS)


def test_repeated_texts_and_markup_give_the_same_rows() -> None:
    page = "<div><a href='/'>Home</a> <p>Same text.</p><p>Same text.</p></div>"
    first = features(page)
    assert features(page) == first  # now from the caches
    assert first[1]["duplicate-count"] == 2 and first[1]["first-duplicate"] == 1
    assert first[2]["first-duplicate"] == 0
