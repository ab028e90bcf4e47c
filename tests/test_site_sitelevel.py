"""SiteLevel(θ): template hashes from node counts over a site's pages, and template marks."""

from __future__ import annotations

from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.site.hashing import TreeHashes, hash_tree
from scrapy_boilerplate.site.sitelevel import mark_templates, site_level, template_hashes

HEADER = (
    '<div id="header"><a href="/">Daily Example</a>'
    '<ul><li><a href="/world/">World</a></li></ul></div>'
)
FOOTER = '<div id="footer"><p>Copyright 2024 Example Media</p><a href="/about">About us</a></div>'


def site_page(number: int) -> str:
    related = "".join(
        f'<li><a href="/s/{number + k}">Story {chr(65 + number + k)}</a></li>' for k in (1, 2)
    )
    return (
        f"<html><body>{HEADER}"
        f'<div id="main"><h1>Headline {chr(0x4E00 + number)}</h1>'
        f"<p>Unique paragraph {chr(0x4E00 + number)} of page, with words.</p></div>"
        f'<ul id="related">{related}</ul>'
        f"{FOOTER}</body></html>"
    )


def trees(count: int) -> list[TreeHashes]:
    return [hash_tree(parse_html(site_page(n))) for n in range(count)]


def ids_marked(tree: TreeHashes, marks: list[bool]) -> set[str]:
    return {e.get("id") for e, m in zip(tree.elements, marks, strict=True) if m and e.get("id")}


def test_threshold_is_strictly_more_than_theta_and_at_least_min_df() -> None:
    df = {1: 2, 2: 3, 3: 1, 4: 10}
    assert template_hashes(df, 20) == {2, 4}  # > 2 pages
    assert template_hashes(df, 10) == {1, 2, 4}  # > 1 page
    assert template_hashes(df, 5) == {1, 2, 4}  # > 0.5 page, but df >= 2
    assert template_hashes(df, 5, min_df=1) == {1, 2, 3, 4}


def test_shared_nodes_are_templates_unique_ones_are_not() -> None:
    pages = trees(20)
    templates = site_level(pages)
    tree = pages[7]
    marks = mark_templates(tree, templates)
    assert ids_marked(tree, marks.by_hash) == {"header", "footer"}
    by_hash_tags = {e.tag for e, m in zip(tree.elements, marks.by_hash, strict=True) if m}
    assert {"a", "ul", "li", "p"} <= by_hash_tags
    assert "h1" not in by_hash_tags
    # related stories share items with neighbouring pages (2 of 20): not more than 10%
    assert "related" not in ids_marked(tree, marks.inside)
    assert not ids_marked(tree, marks.inside) & {"main"}
    texts = [e.text for e, m in zip(tree.elements, marks.inside, strict=True) if m and e.text]
    assert "Copyright 2024 Example Media" in texts
    assert not any("Unique" in text for text in texts)


def test_a_node_on_few_pages_is_not_a_template() -> None:
    pages = trees(20) + [hash_tree(parse_html("<body><p>Only here and there</p></body>"))] * 2
    templates = site_level(pages)  # 2 of 22 pages < 10%
    assert not mark_templates(pages[-1], templates).by_hash[1]
    assert mark_templates(pages[-1], site_level(pages[-2:] + pages[:8])).by_hash[1]


def cover_tree(unique_chars: int) -> TreeHashes:
    """A <div> (11 bytes) holding a template <p> of 112 characters (119 bytes) and a unique <p>
    of ``unique_chars`` characters (7 + n bytes)."""
    template = "<p>" + "t" * 112 + "</p>"
    unique = "<p>" + "u" * unique_chars + "</p>"
    return hash_tree(parse_html(f'<body><div id="box">{template}{unique}</div></body>'))


def test_cover_rule_is_strictly_more_than_85_percent() -> None:
    template_hash = cover_tree(0).hashes[2]
    for unique_chars, box_size, expected in ((2, 139, True), (3, 140, False), (4, 141, False)):
        tree = cover_tree(unique_chars)  # 119 / 140 = 0.85 exactly
        assert tree.hashes[2] == template_hash
        assert (tree.sizes[1], tree.sizes[2]) == (box_size, 119)
        marks = mark_templates(tree, {template_hash})
        assert marks.by_cover[1] is expected
        assert marks.inside[3] is expected  # the unique <p> lies inside the covered <div>
        assert marks.by_hash[2] and not marks.by_hash[1]


def test_cover_marks_the_unique_rest_and_text_cover_guards_it() -> None:
    nav = "".join(f'<li><a href="/section-{n}/">Section {n} name</a></li>' for n in range(8))
    html = f'<body><div id="side"><ul id="menu">{nav}</ul><p id="note">Note</p></div></body>'
    tree = hash_tree(parse_html(html))
    menu = next(i for i, e in enumerate(tree.elements) if e.get("id") == "menu")
    marks = mark_templates(tree, {tree.hashes[menu]})
    assert "side" in ids_marked(tree, marks.by_cover)
    assert "note" in ids_marked(tree, marks.inside)
    guarded = mark_templates(tree, {tree.hashes[menu]}, text_cover=0.99)
    assert "side" not in ids_marked(tree, guarded.by_cover)
    assert "note" not in ids_marked(tree, guarded.inside)
