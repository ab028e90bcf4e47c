"""parse_html: how bytes are decoded (BOM, header, ``<meta>``, detection), that valid UTF-8 bytes
give the tree of their text, and that hostile input is refused or capped, never truncated."""

from __future__ import annotations

import gzip
import random
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import charset_normalizer
import pytest
from lxml import etree
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate.errors import InvalidInputError
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.page import decoding, parsing
from scrapy_boilerplate.page.parsing import (
    decode_html,
    looks_binary,
    parse_as_text,
    parse_html,
)


def text_path_tree(html: bytes, content_type: str | None = None) -> bytes:
    """The tree of the page decoded to text first and handed to libxml2 as text (the reference
    path)."""
    return etree.tostring(parse_as_text(decode_html(html, content_type)))


def tree(html: bytes, content_type: str | None = None) -> bytes:
    return etree.tostring(parse_html(html, content_type))


UTF8_PAGES = [
    "<html><body><p>café – naïve “quotes” 東京</p></body></html>".encode(),
    "\ufeff<html><body><p>with a byte-order mark: é</p></body></html>".encode(),
    '<?xml version="1.0" encoding="iso-8859-1"?><html><body><p>é</p></body></html>'.encode(),
    '<html><head><meta charset="utf-8"></head><body><p>Grüße</p></body></html>'.encode(),
    b"<p>plain ASCII, no html element</p>",
]


@pytest.mark.parametrize("html", UTF8_PAGES)
def test_utf8_bytes_give_the_tree_of_their_text(html: bytes) -> None:
    assert tree(html) == text_path_tree(html)


def test_the_header_charset_wins_over_meta() -> None:
    html = '<html><head><meta charset="iso-8859-1"></head><body><p>Grüße</p></body></html>'
    assert "Grüße" in parse_html(html.encode(), "text/html; charset=utf-8").xpath("string(//p)")


def test_invalid_utf8_is_decoded_with_replacement_characters() -> None:
    html = b"<html><body><p>broken \xff\xfe bytes then text</p></body></html>"
    assert tree(html, "text/html; charset=utf-8") == text_path_tree(
        html, "text/html; charset=utf-8"
    )
    assert "\ufffd" in parse_html(html, "text/html; charset=utf-8").xpath("string(//p)")


def test_legacy_charsets_are_decoded() -> None:
    html = '<html><head><meta charset="windows-1251"></head><body><p>Привет</p></body></html>'
    assert parse_html(html.encode("cp1251")).xpath("string(//p)") == "Привет"


@pytest.mark.parametrize("dataset", ["wcxb-dev", "l3s-gn1"])
def test_every_shared_dataset_page_parses_as_its_text(dataset: str) -> None:
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"shared dataset {dataset} not present")
    for page in load_pages(dataset):
        reference = text_path_tree(page.html)
        assert tree(page.html) == reference, page.url
        assert etree.tostring(parse_html(decode_html(page.html))) == reference, page.url


@pytest.mark.parametrize("html", UTF8_PAGES)
def test_text_input_gives_the_tree_of_text(html: bytes) -> None:
    text = decode_html(html)
    assert etree.tostring(parse_html(text)) == text_path_tree(html)


def test_text_input_reaches_libxml2_as_utf8_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    inputs: list[object] = []
    parse = parsing._parse

    def recording(html: str | bytes, parser: etree.HTMLParser) -> Any:
        inputs.append(html)
        return parse(html, parser)

    monkeypatch.setattr(parsing, "_parse", recording)
    parse_html("<html><body><p>Grüße – 東京</p></body></html>")
    parse_html("<p>a NUL \x00 keeps the text path</p>")
    assert [type(html) for html in inputs] == [bytes, str]


# -- charsets --------------------------------------------------------------------------------

CHARSETS = Path(__file__).parent / "fixtures" / "charsets"


def body_text(html: str | bytes, content_type: str | None = None) -> str:
    """The text of the page's ``<body>``, whitespace collapsed."""
    return " ".join(str(parse_html(html, content_type).xpath("string(//body)")).split())


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("ru-cp1251-undeclared.html", "Депутаты городского совета после долгих обсуждений"),
        ("fr-cp1252-undeclared.html", "le théâtre de la ville a présenté vendredi"),
        ("de-cp1252-undeclared.html", "Die Bürger größerer Städte müssen künftig höhere"),
        ("ja-shift_jis-undeclared.html", "東京都は二十日、総額八兆円を超える新年度の予算案"),
    ],
)
def test_undeclared_legacy_charsets_are_detected(name: str, expected: str) -> None:
    html = (CHARSETS / name).read_bytes()
    text = body_text(html)
    assert expected in text
    assert "\ufffd" not in text


def test_detection_finds_legacy_text_after_a_long_ascii_head() -> None:
    # The detector sees a window that starts near the first byte that is not UTF-8.
    script = "<script>" + "var counter = counter + 1;\n" * 5_000 + "</script>"
    page = (CHARSETS / "ru-cp1251-undeclared.html").read_bytes()
    html = page.replace(b"<head>", b"<head>" + script.encode())
    assert len(script) > 100_000
    assert "Депутаты городского совета" in body_text(html)


def test_detection_sample_does_not_cut_a_character() -> None:
    # Over 64 KiB of Shift_JIS: a sample cut inside a two-byte character defeats the detector.
    page = (CHARSETS / "ja-shift_jis-undeclared.html").read_text("shift_jis")
    paragraph = page.split("<h1>")[1].split("</body>")[0]
    html = page.replace("</body>", paragraph * 300 + "</body>").encode("shift_jis")
    assert len(html) > 65_536 + 1_024
    text = body_text(html)
    assert "知事は記者会見で「都民の暮らしを守るための予算だ」と述べた。" in text
    assert "\ufffd" not in text


def test_detection_reads_a_bounded_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    real = charset_normalizer.from_bytes

    def recording(sample: bytes, **kwargs: Any) -> Any:
        seen.append(len(sample))
        return real(sample, **kwargs)

    monkeypatch.setattr(charset_normalizer, "from_bytes", recording)
    page = (CHARSETS / "fr-cp1252-undeclared.html").read_bytes()
    html = page.replace(b"</body>", page.split(b"<h1>")[1] * 26_000 + b"</body>")
    assert len(html) > 10_000_000
    assert "le théâtre de la ville a présenté vendredi" in body_text(html)
    assert seen and max(seen) <= 65_536


@pytest.mark.parametrize(
    ("html", "content_type"),
    [
        ("<p>Grüße</p>".encode(), None),
        ("<p>Grüße</p>".encode(), "text/html; charset=utf-8"),
        (b"<p>plain ASCII</p>", "text/html; charset=cp1252"),  # Scrapy's for undeclared ASCII
        (b"<p>plain ASCII</p>", "text/html; charset=utf-16"),  # no NUL: not UTF-16
    ],
)
def test_utf8_and_ascii_bytes_are_parsed_as_bytes(html: bytes, content_type: str | None) -> None:
    assert decoding.decode_page(html, content_type) == (html.decode(), True)


def test_valid_utf8_is_never_sent_to_the_detector(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(sample: bytes, **kwargs: Any) -> Any:
        raise AssertionError("the detector ran on valid UTF-8")

    monkeypatch.setattr(charset_normalizer, "from_bytes", refuse)
    for html in UTF8_PAGES:
        assert tree(html) == text_path_tree(html)


@pytest.mark.parametrize("content_type", [None, "text/html; charset=utf-8"])
def test_a_utf8_declaration_that_lies_is_overruled(content_type: str | None) -> None:
    html = (CHARSETS / "fr-cp1252-meta-utf8.html").read_bytes()
    text = body_text(html, content_type)
    assert "Pour la fête de la musique, la mairie a prévu des scènes ouvertes" in text
    assert "place de l’Église dès dix-huit heures" in text


def test_a_few_invalid_bytes_in_utf8_stay_utf8_with_replacement_characters() -> None:
    paragraph = (
        "<p>Le théâtre a rouvert : fauteuils, scène et éclairage sont neufs. Très réussi.</p>"
    )
    html = (
        '<html><head><meta charset="utf-8"></head><body>'
        + paragraph * 10
        + "<p>broken: \x00</p></body></html>"
    ).encode()
    html = html.replace(b"\x00", b"\xe9 \xe0 \xff \x92 \xe8")  # five stray cp1252 bytes
    text = body_text(html)
    assert "Le théâtre a rouvert : fauteuils, scène et éclairage sont neufs." in text
    assert text.count("\ufffd") == 5


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"])
def test_utf16_and_utf32_with_a_bom_are_decoded(encoding: str) -> None:
    page = "<html><body><p>Grüße aus München, 東京</p></body></html>"
    bom = "" if encoding in ("utf-16", "utf-32") else "\ufeff"  # the plain codecs write one
    assert body_text((bom + page).encode(encoding)) == "Grüße aus München, 東京"


@pytest.mark.parametrize(
    ("meta", "content_type"),
    [
        ('<meta charset="utf-16">', None),
        ('<meta http-equiv="Content-Type" content="text/html; charset=UTF-16LE">', None),
        ('<meta charset="utf-32">', None),
        ("", "text/html; charset=utf-16"),
    ],
)
def test_a_utf16_declaration_on_ascii_compatible_bytes_is_ignored(
    meta: str, content_type: str | None
) -> None:
    html = f"<html><head>{meta}</head><body><p>Grüße aus München</p></body></html>".encode()
    assert body_text(html, content_type) == "Grüße aus München"


@pytest.mark.parametrize(
    ("encoding", "charset"),
    [("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16"), ("utf-32-le", "utf-32le")],
)
def test_utf16_declared_in_the_header_without_a_bom_is_decoded(encoding: str, charset: str) -> None:
    html = "<html><body><p>Grüße aus München, 東京</p></body></html>".encode(encoding)
    assert body_text(html, f"text/html; charset={charset}") == "Grüße aus München, 東京"


# -- binary sniffing -------------------------------------------------------------------------


def test_a_few_nul_bytes_do_not_make_text_binary() -> None:
    html = b"<html><body><p>Stray\x00 NUL bytes\x00 in a page.</p>" + b"<p>More text.</p>" * 20
    assert not looks_binary(html)
    assert body_text(html).startswith("Stray NUL bytes in a page.More text.")


def _png() -> bytes:
    pixels = bytes(random.Random(1).randrange(256) for _ in range(3 * 64 * 64))
    chunk = zlib.compress(pixels)
    return (
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00@\x00\x00\x00@\x08\x02\x00\x00\x00"
        + len(chunk).to_bytes(4, "big")
        + b"IDAT"
        + chunk
    )


def _pdf() -> bytes:
    stream = zlib.compress(
        " ".join(f"BT /F1 12 Tf {i} 700 Td (line {i}) Tj ET" for i in range(400)).encode()
    )
    return (
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Length "
        + str(len(stream)).encode()
        + b" /Filter /FlateDecode >>\nstream\n"
        + stream
        + b"\nendstream\nendobj\n"
    )


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(_png(), id="png"),
        pytest.param(_pdf(), id="pdf"),
        pytest.param(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n", id="ascii-pdf"),
        pytest.param(
            gzip.compress(b"<html><body><p>compressed page</p></body></html>" * 50), id="gzip"
        ),
        pytest.param(random.Random(2).randbytes(8192), id="random"),
        pytest.param(random.Random(3).randbytes(300), id="random-short"),
    ],
)
def test_binary_formats_are_refused(data: bytes) -> None:
    assert looks_binary(data)
    with pytest.raises(InvalidInputError, match="binary"):
        parse_html(data)


# -- text input, nesting, attributes, types ---------------------------------------------------


def test_a_lone_surrogate_in_text_input_is_replaced() -> None:
    assert body_text("<p>before \ud800 after</p>") == "before \ufffd after"
    assert body_text("<p>pair \ud83d\ude00 joined</p>") == "pair \U0001f600 joined"


@pytest.mark.parametrize(
    "html",
    [
        pytest.param("<font>" * 3_000 + "<p>the paragraph after</p>", id="3000-unclosed-font"),
        pytest.param(
            "<div>" * 10_000 + "<p>the paragraph after</p>" + "</div>" * 10_000, id="10000-div"
        ),
        pytest.param("<b><i>" * 1_500 + "<p>the paragraph after</p>", id="3000-mixed-inline"),
    ],
)
@pytest.mark.parametrize("as_bytes", [False, True])
def test_nesting_deeper_than_the_parser_limit_is_never_truncated(html: str, as_bytes: bool) -> None:
    try:
        text = body_text(html.encode() if as_bytes else html)
    except InvalidInputError as exc:
        assert "nest" in str(exc)
    else:
        assert "the paragraph after" in text


def test_deep_inline_formatting_is_extracted() -> None:
    assert body_text("<font>" * 3_000 + "<p>the paragraph after</p>") == "the paragraph after"


def test_deep_block_nesting_raises() -> None:
    with pytest.raises(InvalidInputError, match="nest"):
        parse_html("<div>" * 10_000 + "<p>the paragraph after</p>")


def _crowded_tag(count: int) -> str:
    noise = " ".join(f"data-a{i}=x" for i in range(count))
    return f'<a href="/story" class="lead" {noise} id="main" hidden>link</a>'


def test_a_tag_with_forty_thousand_attributes_is_capped() -> None:
    root = parse_html(f"<html><body>{_crowded_tag(40_000)}<p>after</p></body></html>")
    [link] = root.iter("a")
    assert len(link.attrib) <= 64
    assert (link.get("href"), link.get("class"), link.get("id")) == ("/story", "lead", "main")
    assert link.get("hidden") is not None
    assert link.text == "link"
    assert root.xpath("string(//p)") == "after"


@pytest.mark.parametrize("as_bytes", [False, True])
def test_two_megabytes_of_crowded_tags_are_capped(as_bytes: bool) -> None:
    tag = _crowded_tag(400)  # 4.4 KB: tags of 4 KiB or more are looked into
    html = "<html><body>" + (tag + "<p>text</p>") * (2_000_000 // len(tag)) + "</body></html>"
    root = parse_html(html.encode() if as_bytes else html)
    links = list(root.iter("a"))
    assert len(links) == 2_000_000 // len(tag)
    assert all(len(link.attrib) <= 64 and link.get("id") == "main" for link in links)


def test_text_of_scripts_and_comments_is_left_alone() -> None:
    code = "if (a <b" + " && b" * 3_000 + ") { go(); }"
    html = f"<html><head><script>{code}</script></head><body><p>after</p></body></html>"
    root = parse_html(html)
    assert root.xpath("string(//script)") == code
    assert root.xpath("string(//p)") == "after"


def test_a_script_opening_in_a_comment_hides_nothing() -> None:
    html = f"<html><body><!-- <script> -->{_crowded_tag(40_000)}<p>after</p></body></html>"
    [link] = parse_html(html).iter("a")
    assert len(link.attrib) <= 64


def test_two_megabytes_without_a_closing_bracket() -> None:
    html = "<html><body><p>start</p><a " + "x=1 " * 500_000
    root = parse_html(html)
    assert root.xpath("string(//p)") == "start"
    parse_html("<p>start</p>" + "<a" * 1_000_000)  # no crash, no exception


def test_pages_parsed_in_threads_each_get_their_own_outcome() -> None:
    # Whether libxml2 stopped early is read from the parser's error log after the parse: each
    # thread has its own parser, so no other page's parse can clear or fill that log meanwhile.
    deep, ordinary = "<div>" * 3_000 + "<p>after</p>", "<p>" + "text " * 2_000 + "</p>"

    def outcome(html: str) -> str:
        try:
            return str(parse_html(html).xpath("string(//p)")).split()[0]
        except InvalidInputError:
            return "refused"

    with ThreadPoolExecutor(4) as pool:
        outcomes = list(pool.map(outcome, [deep, ordinary] * 100))
    assert outcomes == ["refused", "text"] * 100


def test_bytes_like_input_is_accepted() -> None:
    html = "<html><body><p>Grüße</p></body></html>".encode()
    for data in (bytearray(html), memoryview(html)):
        assert body_text(data) == "Grüße"


@pytest.mark.parametrize("html", [None, 5, ["<p>"]])
def test_other_input_types_raise_type_error(html: Any) -> None:
    with pytest.raises(TypeError, match="str, bytes, bytearray or memoryview"):
        parse_html(html)
