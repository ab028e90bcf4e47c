"""Canonical subtree hashes: equal for nodes that show the same thing, different otherwise."""

from __future__ import annotations

from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.site.hashing import (
    MAX_FINGERPRINT_HASHES,
    decode_hashes,
    encode_hashes,
    fingerprint_hashes,
    hash_tree,
    href_path,
    normalise_text,
    page_fingerprint,
)


def tree_of(html: str):  # type: ignore[no-untyped-def]
    return hash_tree(parse_html(html))


def hash_of(html: str, element_id: str) -> int:
    tree = tree_of(html)
    for element, digest in zip(tree.elements, tree.hashes, strict=True):
        if element.get("id") == element_id:
            return digest
    raise AssertionError(element_id)


NAV = '<ul id="nav"><li><a href="/news/">News</a></li><li><a href="/sport/">Sport</a></li></ul>'


def test_normalisation_folds_space_case_and_digits() -> None:
    assert normalise_text("  Posted\n 5  MINUTES ago ") == "posted 0 minutes ago"
    assert normalise_text(None) == ""


def test_href_path_drops_scheme_host_query_and_fragment() -> None:
    assert (
        href_path("https://www.example.com/news/2024/story-12?utm=x#top") == "/news/0000/story-00"
    )
    assert href_path("/news/?session=abc") == "/news/"
    assert href_path("mailto:desk@example.com") == "desk@example.com"


def test_same_node_hashes_alike_whatever_its_attributes_and_surroundings() -> None:
    first = f'<html><body><div class="a1">{NAV}<p>Story one</p></div></body></html>'
    second = (
        '<html><body><div class="b2" data-x="7"><p>Other</p>'
        + NAV.replace('"/news/"', '"https://example.com/news/?s=1"').replace("<ul", "<ul class=z")
        + "<script>var page = 42;</script></div></body></html>"
    )
    assert hash_of(first, "nav") == hash_of(second, "nav")


def test_text_tags_order_and_links_change_the_hash() -> None:
    base = hash_of(f"<body>{NAV}</body>", "nav")
    assert hash_of(f"<body>{NAV.replace('Sport', 'Weather')}</body>", "nav") != base
    assert hash_of(f"<body>{NAV.replace('/sport/', '/weather/')}</body>", "nav") != base
    assert hash_of(f"<body>{NAV.replace('<li>', '<li><b>', 1)}</body>", "nav") != base
    swapped = (
        '<ul id="nav"><li><a href="/sport/">Sport</a></li><li><a href="/news/">News</a></li></ul>'
    )
    assert hash_of(f"<body>{swapped}</body>", "nav") != base


def test_tails_belong_to_the_parent() -> None:
    with_tail = hash_of('<body><div id="d"><b>a</b> tail</div></body>', "d")
    without = hash_of('<body><div id="d"><b>a</b></div></body>', "d")
    assert with_tail != without
    assert hash_of('<body><div><b id="b">a</b> tail</div></body>', "b") == hash_of(
        '<body><div><b id="b">a</b> other</div></body>', "b"
    )


def test_skipped_subtrees_do_not_count() -> None:
    plain = hash_of('<body><div id="d"><p>x</p></div></body>', "d")
    with_svg = hash_of('<body><div id="d"><svg><path d="M0"/></svg><p>x</p></div></body>', "d")
    assert plain == with_svg


def test_tree_order_parents_sizes_and_signed() -> None:
    tree = tree_of("<body><div><p>Hello</p><span></span></div><br></body>")
    tags = [element.tag for element in tree.elements]
    assert tags == ["body", "div", "p", "span", "br"]
    assert tree.parents == [-1, 0, 1, 1, 0]
    assert tree.signed == [True, True, True, False, False]
    assert tree.chars[0] == tree.chars[1] == tree.chars[2] == len("hello")
    assert tree.sizes[2] == 2 * len("p") + 5 + len("Hello")
    assert tree.sizes[1] == 2 * len("div") + 5 + tree.sizes[2] + tree.sizes[3]
    assert tree.sizes[0] > tree.sizes[1]


def test_no_body_gives_an_empty_tree() -> None:
    assert len(tree_of("<html><head><title>t</title></head></html>")) in (0, 1)


def test_ten_thousand_deep_page_is_hashed_without_recursion() -> None:
    from lxml import etree

    body = etree.Element("body")
    node = body
    for _ in range(10_000):
        node = etree.SubElement(node, "div")
    node.text = "deep"
    html = etree.Element("html")
    html.append(body)
    tree = hash_tree(html)
    assert len(tree) == 10_001
    assert all(tree.signed)
    assert len(set(tree.hashes)) == 10_001


def test_fingerprint_is_distinct_signed_hashes_round_tripped() -> None:
    root = parse_html(f"<body>{NAV}{NAV}<div></div><p>x</p></body>")
    tree = hash_tree(root)
    hashes = fingerprint_hashes(tree)
    assert len(hashes) == len(set(hashes))
    unsigned = {h for h, s in zip(tree.hashes, tree.signed, strict=True) if not s}
    assert not unsigned & set(hashes)
    assert list(decode_hashes(page_fingerprint(root))) == hashes
    assert list(decode_hashes(encode_hashes([0, 2**64 - 1]))) == [0, 2**64 - 1]


def test_fingerprint_is_bounded() -> None:
    items = "".join(f"<p>item {chr(0x4E00 + i)}</p>" for i in range(MAX_FINGERPRINT_HASHES + 50))
    assert len(fingerprint_hashes(tree_of(f"<body>{items}</body>"))) == MAX_FINGERPRINT_HASHES


def test_the_last_tree_is_remembered() -> None:
    root = parse_html("<body><p>x</p></body>")
    assert hash_tree(root) is hash_tree(root)
    other = parse_html("<body><p>x</p></body>")
    assert hash_tree(other) is not hash_tree(root)
    page_fingerprint(root)
    assert hash_tree(root).hashes == hash_tree(other).hashes


def test_the_first_body_in_document_order_is_hashed() -> None:
    from lxml import etree

    root = etree.fromstring("<html><head><body id='a'><p>x</p></body></head><body id='b'/></html>")
    assert hash_tree(root).elements[0].get("id") == "a"
    body = etree.fromstring("<body id='c'><p>y</p></body>")
    assert hash_tree(body).elements[0].get("id") == "c"
