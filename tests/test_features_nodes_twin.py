"""The compiled node table walk and feature rows give exactly what the pure-Python reference
gives: on hand-made pages, on trees built with the API, on random pages, on the fixture pages
and, when present, on every page of the shared datasets (with the compiled template scores,
whose other tests are in ``test_classifiers_template.py``).

Skipped when the extension is not built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set (CI
sets it, so a broken build fails there instead of silently testing nothing).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from lxml import etree
from pure_python import twin_or_skip
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate.classifiers.template import (
    PageNodes,
    load_template_model,
    page_template_scores,
    template_scores,
    template_scores_pure,
)
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.features import node_features, nodes
from scrapy_boilerplate.features.structure import (
    KEYWORD_GROUPS,
    element_bits,
    element_bits_pure,
    keyword_mask,
)
from scrapy_boilerplate.model.document import Element
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import PURE_PYTHON_ENV, segment

_nodes = twin_or_skip("scrapy_boilerplate.features._nodes")

FIXTURES = Path(__file__).parent / "fixtures"
URL = "https://www.news.com/story/1"


def assert_same_nodes(
    root: Element | None, url: str | None = URL, title: str | None = None, *, taken: bool = True
) -> None:
    """Both walks (and both row builders) agree, with and without hidden elements kept;
    ``taken``: the compiled walk takes the tree (no fallback to the reference)."""
    blocks = segment(root, url=url).blocks if root is not None else []
    for keep_hidden in (False, True):
        fast = nodes.node_table(root, url, title, keep_hidden=keep_hidden)
        pure = nodes.node_table_pure(root, url, title, keep_hidden=keep_hidden)
        assert fast == pure  # every column; elements are the very same lxml elements
        body = nodes._body(root)
        if body is not None:
            columns = _nodes.node_columns(body, "", set(), keep_hidden)
            assert (columns is not None) is taken
        if not len(pure):
            continue
        area = nodes.areas(pure)
        assert repr(area) == repr(nodes.areas_pure(pure))
        tree = nodes.fold_hidden(pure, area)
        for min_area in (0.0, nodes.MIN_AREA, 150.0):
            assert nodes.fold_hidden(pure, area, min_area) == nodes.fold_hidden_pure(
                pure, area, min_area
            )
        owners = nodes.block_owners_pure(pure, tree, blocks)
        assert nodes.block_owners(pure, tree, blocks) == owners
        fast_rows = node_features.node_feature_rows(pure, tree, area)
        pure_rows = node_features.node_feature_rows_pure(pure, tree, area)
        assert repr(fast_rows) == repr(pure_rows)  # exact floats, and floats only
    assert_same_element_bits(root)


def assert_same_element_bits(root: Element | None) -> None:
    """The element bits of every node of the tree (comments too), both ways."""
    if root is None:
        return
    for element in root.iter():
        assert element_bits(element) == element_bits_pure(element), etree.tostring(element)[:80]


HAND_MADE = [
    "<html><head><title>Storm hits the coast</title></head><body><div id=nav class='menu top'>"
    "<a href='/home'>Home</a> <a href='https://other.org/x'>Away</a> <a href='//news.com/w'>W</a>"
    "<a href='mailto:a@b.c'>mail</a><a>no href</a><a href=''>empty</a></div><article role=main>"
    "<h1>Storm hits the coast</h1><p>The storm hit the <b>coast</b> on Monday.</p><img src=a>"
    "<script>var x = 'never';</script> tail words <form><input name=q><select><option>o"
    "</option></select><button>Go</button><textarea>typed</textarea></form></article>"
    "<p style='display:none'>secret</p><p hidden>gone</p><p aria-hidden=' TRUE '>aria</p>"
    "<p style='color: red'>shown</p><p aria-hidden=false>also shown</p></body></html>",
    "<body>text<script>var x = 1;</script>more<style>p{}</style><noscript>no</noscript></body>",
    "<body><svg><text>drawn</text></svg><iframe>f</iframe><template>t</template>x</body>",
    "<body><p>a&nbsp;b \u00a0 c\u3000d\u2028e\tf</p><p>   </p><p>\u00a0</p><p>_ -- !!</p></body>",
    "<body><p>don\u2019t \u00abquoted\u00bb \u00a9 2024 | menu \u2014 dash\u2026 _ a_b</p></body>",
    "<body><p title='caf\u00e9 \u4e2d\u6587' data-x=\"\u00e9\">\u0915\u093f\u0924\u093e\u092c "
    "\u0645\u064e\u0643\u0652\u062a\u064e\u0628 \u0301\u0301 \u0663\u0664</p></body>",
    "<body>" + "<div>" * 60 + "deep" + "</div>" * 60 + "tail</body>",
    "<body><a href=1>outer <div>block <a href=2>inner</a> in a link</div> still</a> after</body>",
    "<body hidden><p>all hidden</p></body>",
    "<body style='display:none'></body>",
    "<body></body>",
    "<title>outside</title><p>no html element</p>",
    "<html><body><p>x</p></body></html><p>after html</p>",
    "<body><div itemprop=articleBody itemtype='https://schema.org/Comment' class=comments>"
    "<section class='related-posts'><aside>side</aside><nav>n</nav></section></div></body>",
    "<body><table><tr><td>c1<td>c2</table><ul><li>one<li>two</ul><dl><dt>t<dd>d</dl></body>",
    "<body><p hidden=hidden>boolean</p><input disabled><details open>d</details></body>",
]


@pytest.mark.parametrize("html", HAND_MADE)
def test_hand_made_pages(html: str) -> None:
    root = parse_html(html)
    assert_same_nodes(root, URL, "Storm hits the coast")
    assert_same_nodes(root, None, None)


def test_no_body() -> None:
    assert_same_nodes(None)
    assert_same_nodes(parse_html("<html><head><title>t</title></head><frameset></frameset></html>"))


def built_tree() -> Element:
    """A tree the HTML parser never makes: comments, PIs, entities, namespaces."""
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    body.text = "lead "
    para = etree.SubElement(body, "p")
    para.text = "before"
    para.append(etree.Comment(" a comment "))
    para[-1].tail = "after comment"
    para.append(etree.ProcessingInstruction("php", "echo 1"))
    para[-1].tail = " after pi"
    para.append(etree.Entity("nbsp"))
    para[-1].tail = "after entity"
    svg = etree.SubElement(body, "{http://www.w3.org/2000/svg}svg")
    svg.text = "namespaced"
    return root


def test_trees_the_walk_does_not_take_fall_back_to_the_reference() -> None:
    root = built_tree()
    assert_same_nodes(root, taken=False)
    root.find("body/p").clear()  # comments, PI and entity gone; the namespaced svg stays
    assert_same_nodes(root, taken=False)
    root.find("body").remove(root.find("body")[1])
    assert_same_nodes(root)
    element = etree.SubElement(root.find("body"), "p")
    element.set("{urn:x}lang", "en")  # a namespaced attribute
    element.text = "namespaced attribute"
    assert_same_nodes(root, taken=False)


def test_cdata_and_api_trees() -> None:
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    para = etree.SubElement(body, "p", {"class": "story", "id": "x"})
    para.text = etree.CDATA("cdata text here")
    para.tail = "\n  tail"
    skipped = etree.SubElement(body, "script", {"type": "text/js"})
    skipped.text = etree.CDATA("var y")
    skipped.tail = "after the script"
    assert_same_nodes(root)


def test_a_body_element_as_root() -> None:
    root = parse_html("<body><div><p>in <b>bold</b></p>tail of p</div>after div</body>")
    assert_same_nodes(root.find("body"))


def test_literal_sets_of_patterns() -> None:
    assert _nodes._literal_set(re.compile(r"read-?(?:next|more)|col-")) == [
        "col-",
        "read-more",
        "read-next",
        "readmore",
        "readnext",
    ]
    assert _nodes._literal_set(re.compile(r"(?:^|[-_ ])ads?(?:$|[-_ ])|advert")) is None
    assert _nodes._literal_set(re.compile(r"a|bc")) is None  # a one-letter literal
    assert _nodes._literal_set(re.compile(r"ab|c[de]")) is None
    assert _nodes._literal_set(re.compile(r"ab|cd", re.IGNORECASE)) is None
    assert _nodes._literal_set(re.compile(r"caf\u00e9")) is None  # not ASCII


def test_patterns_split_into_literals_and_searched_alternatives() -> None:
    assert _nodes._top_level_branches(r"a[|]b|c(d|e)|[]|x]|\|y") == [
        "a[|]b",
        "c(d|e)",
        "[]|x]",
        r"\|y",
    ]
    literals, searched = _nodes._split_pattern(re.compile(r"(?:^|[-_ ])ads?(?:$|[-_ ])|advert"))
    assert literals == ["advert"]
    assert [(branch.pattern, required) for branch, required in searched] == [
        (r"(?:^|[-_ ])ads?(?:$|[-_ ])", "ad")
    ]
    assert _nodes._required_literal(re.compile(r"x?[ab]c")) == "c"
    assert _nodes._required_literal(re.compile(r"[ab]+")) is None
    assert _nodes._required_literal(re.compile(r"ad", re.IGNORECASE)) is None


@pytest.mark.parametrize("seed", range(4))
def test_keyword_masks_of_random_names(seed: int) -> None:
    """Names built from the groups' own words, pieces of them and separators."""
    rng = random.Random(seed)
    words = [word for _, pattern in KEYWORD_GROUPS for word in re.split(r"[|()?:^$\[\]]+", pattern)]
    pieces = [word for word in words if word] + ["ad", "ads", "read", "-", "_", " ", "\n", "é", "x"]
    pieces += [word[: rng.randint(1, len(word))] for word in words if word]
    for _ in range(2_000):
        value = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        assert _nodes.keyword_mask(value) == keyword_mask(value), value


HREFS = [
    "/a", "a.html", "#top", "?q=1", "", "  ", "//news.com/x", "//www.news.com/x", "//other.org",
    "https://news.com", "HTTPS://NEWS.COM/x", "http://www.news.com:80/", "http://u@news.com/",
    "http://news.com.evil.org/", "http://evil.org/?u=news.com", "mailto:x@news.com",
    "javascript:void(0)", "ftp://news.com/", " http://news.com ", "http://ne\tws.com/",
    "http://news\n.com", "\thttp://news.com", "\x01http://news.com", "http://[::1]/",
    "http://[bad/", "http://bad]/", "http://n%65ws.com", "http://news.com%ZONE/",
    "http://\u00f1ews.com/", "http://news.com\u3002x/", "tel:123", "news.com/x", "c:/path",
    "http:news.com", "http:/news.com", "//", "http://", "http://www./", "http://WWW.News.Com",
    "HTTPS://News.Com:8080/a", "http://user@news.com/", "http://news.com?x=1", "http://news.com#f",
    "//www.news.com/x", "http://news.com.evil.org/", "http://evil.org/news.com", "https://news.com:/",
    "http://:80/news.com", "hTTp://news.com/", "http://news.com\\x", "https:news.com//news.com",
    "http://www.www.news.com/", "//news.com", "http://news.com:x:y/",
]  # fmt: skip


@pytest.mark.parametrize("host", ["news.com", "", "other.org", "news.com%ZONE", "com"])
def test_internal_links(host: str) -> None:
    """The twin's shortcut (no parsing when the host is not in the link) and its cache."""
    for _ in range(2):  # the second time from the cache
        for href in HREFS:
            try:
                expected = nodes._is_internal(href, host)
            except ValueError:
                with pytest.raises(ValueError):
                    _nodes.is_internal(href, host)
                continue
            assert _nodes.is_internal(href, host) == expected, href


TITLE_WORDS = ["storm", "coast", "monday", "\u00e9t\u00e9", "i\u0307stanbul", "x", "2024"]


LONG_WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 2  # 90 letters


@pytest.mark.parametrize(
    "text",
    [
        "a\x1cb\x1dc\x1ed\x1fe\x0bf\x0cg\rh Storm",  # str.isspace's ASCII control spaces
        "\x00\x01\x7f STORM,coast;MONDAY!! storms storm_coast 2024x",
        f"the {LONG_WORD.upper()} word, {LONG_WORD[:-1]} and {LONG_WORD}",
        "   \t\n  ",
        "!!! -- ...",
    ],
)
def test_ascii_texts_are_counted_on_their_bytes(text: str) -> None:
    """All-ASCII texts take the twin's byte path: the same counts as the reference."""
    html = f"<body><p>{text}<a href=/x>{text}</a>{text}</p>{text}</body>"
    assert_same_nodes(parse_html(html), URL, f"Storm on the coast: {LONG_WORD} Monday 2024x")


@pytest.mark.parametrize("seed", range(3))
def test_title_words_of_random_texts(seed: int) -> None:
    """The twin's shortcuts (length and first-character tests, ASCII texts not lowered)."""
    rng = random.Random(seed)
    alphabet = "aZxX09 ,.-\u00e9\u00c9\u0130I\u0307\u4e2d\u00a0"
    for _ in range(500):
        vocabulary = set(rng.sample(TITLE_WORDS, rng.randint(1, 4)))
        pieces = [rng.choice([*TITLE_WORDS, "Storm", "STORM", "\u0130stanbul", "\u00c9T\u00c9"])]
        pieces += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))]
        text = " ".join(rng.sample(pieces * 3, rng.randint(1, 6)))
        expected = nodes._title_word_count(text, vocabulary)
        assert _nodes.title_word_count(text, vocabulary) == expected, (text, vocabulary)


TAGS = ["div", "p", "span", "a", "b", "li", "ul", "section", "nav", "img", "input", "td", "h2"]
SKIPPED = ["script", "style", "svg", "textarea", "noscript", "iframe", "template"]
ATTRIBUTES = [
    "",
    " class='comment-list'",
    " id='main-content'",
    " class='share social' id=top",
    " role=navigation",
    " itemprop=author",
    " style='display: none'",
    " style='color:red'",
    " hidden",
    " aria-hidden=true",
    " href='/x'",
    " href='https://news.com/y'",
    " href='http://elsewhere.org/'",
    " href='javascript:void(0)'",
    " data-caf\u00e9='\u00e9t\u00e9'",
]
ALPHABET = "aZ09_ \u00a0\u2007\t\n.,!-'\u00e9\u4e2d\u0663\u0301\u2019|"
WORDS = ["storm", "coast", "the", "Monday", "news"]


def random_text(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6)))
    return "".join(rng.choice(ALPHABET) for _ in range(rng.choice([0, 1, 3, 12, 40])))


def random_page(rng: random.Random, depth: int = 0) -> str:
    """Random markup: nested elements with texts, tails, attributes and skipped elements."""
    parts = [random_text(rng)]
    for _ in range(rng.randint(0, 4 if depth < 5 else 0)):
        if rng.random() < 0.15:
            tag = rng.choice(SKIPPED)
            parts.append(f"<{tag}>{random_text(rng)}</{tag}>")
        else:
            tag = rng.choice(TAGS)
            attributes = rng.choice(ATTRIBUTES)
            parts.append(f"<{tag}{attributes}>{random_page(rng, depth + 1)}</{tag}>")
        parts.append(random_text(rng))
    return "".join(parts)


@pytest.mark.parametrize("seed", range(10))
def test_random_pages(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(30):
        html = f"<html><body>{random_page(rng)}</body></html>"
        assert_same_nodes(parse_html(html), URL, "The storm hits the coast on Monday")


@pytest.mark.parametrize(
    "path", sorted(FIXTURES.rglob("*.html")), ids=lambda path: str(path.relative_to(FIXTURES))
)
def test_fixture_pages(path: Path) -> None:
    root = parse_html(path.read_bytes())
    assert_same_nodes(root, "https://example.com/page", root.findtext("head/title"))


@pytest.mark.parametrize("dataset", ["wcxb-dev", "l3s-gn1", "cleaneval/dev", "cleaneval/final"])
def test_every_shared_dataset_page(dataset: str) -> None:
    """Every page: the node tables (hidden elements dropped; kept on every tenth page), the
    feature rows and the shipped model's scores of the compiled twins and of the reference."""
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"shared dataset {dataset} not present")
    model = load_template_model()
    count = 0
    for page in load_pages(SHARED_DATASETS / dataset):
        root = parse_html(page.html)
        title = root.findtext("head/title")
        keep_hidden = count % 10 == 0
        pure = nodes.node_table_pure(root, page.url, title, keep_hidden=keep_hidden)
        assert nodes.node_table(root, page.url, title, keep_hidden=keep_hidden) == pure, page.id
        assert_same_element_bits(root)
        count += 1
        if not len(pure):
            continue
        area = nodes.areas(pure)
        assert repr(area) == repr(nodes.areas_pure(pure)), page.id
        tree = nodes.fold_hidden(pure, area)
        for min_area in (0.0, nodes.MIN_AREA, 150.0):
            assert nodes.fold_hidden(pure, area, min_area) == nodes.fold_hidden_pure(
                pure, area, min_area
            )
        blocks = segment(root, url=page.url).blocks
        owners = nodes.block_owners_pure(pure, tree, blocks)
        assert nodes.block_owners(pure, tree, blocks) == owners, page.id
        rows = node_features.node_feature_rows_pure(pure, tree, area)
        assert node_features.node_feature_rows(pure, tree, area) == rows, page.id
        scores = template_scores_pure(model, rows)
        assert template_scores(model, rows) == scores, page.id
        matrix = node_features.node_feature_matrix(pure, tree, area)
        assert matrix is not None and list(matrix) == [v for row in rows for v in row], page.id
        assert page_template_scores(model, PageNodes(pure, area, tree, [])) == scores, page.id
    assert count >= 50


def test_the_environment_variable_selects_the_pure_python_code() -> None:
    code = (
        "from scrapy_boilerplate.features import node_features, nodes, structure\n"
        "assert not nodes.ACCELERATED and node_features._nodes is None\n"
        "assert structure._nodes is None\n"
    )
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert nodes.ACCELERATED is not bool(os.environ.get(PURE_PYTHON_ENV))


def test_element_bits_cached_by_raw_attribute_bytes() -> None:
    # the compiled cache keys a namespace-less element by its name and raw attribute bytes:
    # absent, empty and present values differ, as do tags; long values, values that are not
    # one text and namespaced elements take the other keys; the answers are the reference's
    long_class = "comment-list " * 60
    root = parse_html(
        "<html><body><div class='comment'>a</div><section class='comment'>b</section>"
        "<div class=''>c</div><div class>d</div><div>e</div><div id='comment'>f</div>"
        f"<div class='{long_class}'>g</div><aside role='navigation' class='x'>h</aside>"
        "<div class='sidebar&amp;ad'>i</div><nav class='\u00e9l\u00e9ment'>j</nav>"
        "<div class='comment'>again</div></body></html>"
    )
    for _ in range(2):  # the second pass answers from the cache
        assert_same_element_bits(root)
    entity = etree.fromstring("<div><p/></div>")
    entity.set("class", "related")
    entity.append(etree.Element("{urn:x}div", attrib={"class": "comment"}))
    assert_same_element_bits(entity)


def test_compiled_fold_leaves_malformed_tables_to_the_reference() -> None:
    # a parent that does not come before its child: the twin declines, the reference decides
    assert _nodes.fold_hidden([-1, 2, 0], [50.0, 1.0, 1.0], 16.0) is None
    assert _nodes.fold_hidden([-1, 0], [50.0], 16.0) is None
    assert _nodes.fold_hidden([-1, 0, 1, 0], [50.0, 1.0, 1.0, 40.0], 16.0) == (
        [0, 3],
        [-1, 0],
        [2.0, 1.0],
        [0, 0, 0, 1],
    )


def test_block_owners_of_elements_outside_the_table() -> None:
    # a block without element, one above <body> and one inside a skipped element: <body>'s
    # owner (0) for the first two, the nearest node's owner for the third, both ways
    root = parse_html("<html><body><div><p>one</p><script>x</script></div><p>two</p></body></html>")
    table = nodes.node_table(root, URL)
    tree = nodes.fold_hidden(table, nodes.areas(table), 0.0)
    script = root.find(".//script")
    blocks = [
        SimpleNamespace(element=None),
        SimpleNamespace(element=root),
        SimpleNamespace(element=script),
        SimpleNamespace(element=root.findall(".//p")[1]),
    ]
    expected = nodes.block_owners_pure(table, tree, blocks)  # type: ignore[arg-type]
    assert expected == [0, 0, tree.owner[table.index()[script.getparent()]], 3]
    assert _nodes.block_owners(table.elements, tree.owner, blocks) == expected


def test_compiled_areas_decline_columns_of_other_lengths() -> None:
    assert _nodes.areas([1, 2], [0], [0, 0], 100.0, 30.0) is None
    assert _nodes.areas([3, 0], [1, 0], [0, 2], 100.0, 30.0) == [103.0, 60.0]
