"""Site templates in extraction: the filter, the ``site_templates`` option and the context."""

from __future__ import annotations

import pickle

from site_pages import RELATED, page, related_page, story

from scrapy_boilerplate import ExtractionContext, extract
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment
from scrapy_boilerplate.site.filter import (
    SiteTemplateElements,
    SiteTemplateFilter,
    dropped_by_templates,
)
from scrapy_boilerplate.site.hashing import decode_hashes, hash_tree
from scrapy_boilerplate.site.sitelevel import site_level
from scrapy_boilerplate.site.templates import (
    LEARN_KEY,
    SITE_TEMPLATES_KEY,
    SiteTemplates,
    templates_of,
)


def site_templates(count: int = 10) -> SiteTemplates:
    hashes = site_level(hash_tree(parse_html(page(n))) for n in range(count))
    return SiteTemplates.of(hashes, version=1, pages=count)


def context(templates: SiteTemplates | None, learn: bool = False) -> ExtractionContext:
    data: dict[str, object] = {LEARN_KEY: learn}
    if templates is not None:
        data[SITE_TEMPLATES_KEY] = templates
    return ExtractionContext(site="example.com", site_data=data)


def test_the_rule_chain_keeps_the_promo_without_site_templates() -> None:
    assert "Subscribe" in extract(page(20), extractor="article-rules").text
    # the option alone changes nothing: the context carries no templates
    assert "Subscribe" in extract(page(20), extractor="article-rules", site_templates=True).text


def test_site_templates_drop_from_the_rule_chain_the_repeated_promo_and_keep_the_story() -> None:
    ctx = context(site_templates())
    result = extract(page(20), extractor="article-rules", site_templates=True, context=ctx)
    assert "Subscribe" not in result.text
    assert story(20) in result.text and "Headline U" in result.text
    promo = next(block for block in result.blocks if "Subscribe" in block.text)
    assert {L.SITE_TEMPLATE, L.STRICTLY_NOT_CONTENT} <= promo.labels
    # off by default: the same context, no option
    assert "Subscribe" in extract(page(20), extractor="article-rules", context=ctx).text


def test_article_learned_takes_the_option_too() -> None:
    ctx = context(site_templates())
    result = extract(page(20), extractor="article-learned", site_templates=True, context=ctx)
    promo = next(block for block in result.blocks if "Subscribe" in block.text)
    assert not promo.is_content and L.SITE_TEMPLATE in promo.labels
    hard = extract(
        page(20), extractor="article-learned", site_templates=True, template_penalty=1, context=ctx
    )
    promo = next(block for block in hard.blocks if "Subscribe" in block.text)
    assert not promo.is_content and promo.score == 0.0


def test_page_template_raises_the_templateness_of_site_template_nodes() -> None:
    ctx = context(site_templates())
    plain = extract(page(20), extractor="page-template", context=ctx)
    raised = extract(page(20), extractor="page-template", site_templates=True, context=ctx)
    promo_plain, promo_raised = (
        next(block for block in result.blocks if "Subscribe" in block.text)
        for result in (plain, raised)
    )
    assert promo_raised.score is not None and promo_plain.score is not None
    # templateness at least 0.95 (up to the smoothing's 64 score levels)
    assert promo_raised.score < 0.06 < promo_plain.score
    assert story(20) in raised.text
    assert [b.score for b in raised.blocks if "Report" in b.text] == [
        b.score for b in plain.blocks if "Report" in b.text
    ]


def test_site_template_elements_are_those_inside_template_nodes() -> None:
    doc = segment(parse_html(page(20)))
    inside = SiteTemplateElements(site_templates().hashes)(doc)
    for block in doc.blocks:
        expected = not block.text.startswith(("Report", "Headline"))
        assert all((element in inside) == expected for element in block.elements), block.text
    assert SiteTemplateElements(frozenset())(doc) == set()


def test_filter_needs_every_element_of_a_block_inside_templates() -> None:
    templates = site_templates().hashes
    doc = segment(parse_html(page(20)))
    promo = next(block for block in doc.blocks if "Subscribe" in block.text)
    story_block = next(block for block in doc.blocks if block.text.startswith("Report UA"))
    promo.elements.extend(story_block.elements)  # as after a fusion with story text
    for block in doc.blocks:
        block.is_content = True
    assert SiteTemplateFilter(templates)(doc)
    assert promo.is_content and story_block.is_content
    nav = next(block for block in doc.blocks if "Home" in block.text)
    assert not nav.is_content and L.SITE_TEMPLATE in nav.labels
    assert not SiteTemplateFilter(frozenset())(doc)


def test_a_scored_template_block_stays_when_its_score_minus_the_penalty_reaches_the_threshold() -> (
    None
):
    templates = site_templates().hashes
    doc = segment(parse_html(page(20)))
    promo = next(block for block in doc.blocks if "Subscribe" in block.text)
    nav = next(block for block in doc.blocks if "Home" in block.text)
    for block in doc.blocks:
        block.is_content, block.score = True, 0.9
    nav.score = 0.7
    assert SiteTemplateFilter(templates, penalty=0.55, threshold=0.25)(doc)
    assert promo.is_content and promo.score == 0.9  # 0.9 - 0.55 >= 0.25: the model is sure
    assert L.SITE_TEMPLATE in promo.labels and L.STRICTLY_NOT_CONTENT not in promo.labels
    assert not nav.is_content and nav.score == 0.0 and L.STRICTLY_NOT_CONTENT in nav.labels
    assert dropped_by_templates(doc.blocks) == 1
    # penalty 1 drops every template block, and so does any penalty for unscored blocks
    SiteTemplateFilter(templates, penalty=1.0, threshold=0.25)(doc)
    assert not promo.is_content and dropped_by_templates(doc.blocks) == 2
    unscored = segment(parse_html(page(20)))
    for block in unscored.blocks:
        block.is_content = True
    SiteTemplateFilter(templates, penalty=0.0, threshold=0.25)(unscored)
    assert not any(block.is_content for block in unscored.blocks if "Subscribe" in block.text)


def test_a_block_the_chain_exempts_is_left_as_the_model_decided() -> None:
    templates = site_templates().hashes
    doc = segment(parse_html(page(20)))
    promo = next(block for block in doc.blocks if "Subscribe" in block.text)
    nav = next(block for block in doc.blocks if "Home" in block.text)
    for block in doc.blocks:
        block.is_content, block.score = True, 0.6
    SiteTemplateFilter(templates, penalty=0.55, threshold=0.25, exempt=lambda _: [promo])(doc)
    assert promo.is_content and promo.score == 0.6 and L.SITE_TEMPLATE in promo.labels
    assert not nav.is_content and nav.score == 0.0  # not exempt: 0.6 - 0.55 < 0.25


ABOUT = (
    "The Daily Example is an independent newspaper founded in 1901 and owned by a trust of its "
    "readers; letters to the editor are welcome and may be edited for length and clarity."
)


def about_page(number: int) -> str:
    """:func:`site_pages.related_page` with a paragraph about the paper before the links."""
    return related_page(number).replace('<p class="more">', f'<p>{ABOUT}</p><p class="more">')


def test_article_keeps_a_template_paragraph_it_is_sure_of_and_drops_the_rest() -> None:
    hashes = site_level(hash_tree(parse_html(about_page(n))) for n in range(10))
    ctx = context(SiteTemplates.of(hashes, version=1, pages=10))
    # at the article point: the page type of these made-up words is anyone's guess
    alone = extract(about_page(20), extractor="article", mode="article")
    assert ABOUT in alone.text and RELATED in alone.text
    result = extract(
        about_page(20), extractor="article", mode="article", site_templates=True, context=ctx
    )
    assert ABOUT in result.text and RELATED not in result.text and story(20) in result.text
    assert result.site_template_drops >= 1
    dropped = extract(
        about_page(20),
        extractor="article",
        mode="article",
        site_templates=True,
        template_penalty=1,
        context=ctx,
    )
    assert ABOUT not in dropped.text and story(20) in dropped.text
    assert dropped.site_template_drops > result.site_template_drops


def test_fingerprint_only_when_asked() -> None:
    assert extract(page(1), extractor="article").site_fingerprint is None
    result = extract(page(1), extractor="article", context=context(None, learn=True))
    assert result.site_fingerprint is not None
    hashes = set(decode_hashes(result.site_fingerprint))
    assert hashes and hashes == set(
        decode_hashes(pickle.loads(pickle.dumps(result)).site_fingerprint)
    )
    assert site_templates().hashes <= hashes


def test_templates_travel_small_and_decode_once() -> None:
    templates = site_templates()
    assert len(templates) == len(templates.hashes)
    assert len(pickle.dumps(context(templates))) < 200 + 8 * len(templates)
    copy = pickle.loads(pickle.dumps(templates))
    assert copy.hashes == templates.hashes
    assert templates_of(context(templates)) == templates
    assert templates_of(context(SiteTemplates.of(set(), 1, 10))) is None
    assert templates_of(ExtractionContext()) is None
