"""The demo sites' content model: sites, sections, articles and teasers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

__all__ = ["Site", "Article", "Comment", "BodyPart"]


@dataclass(frozen=True)
class Site:
    """One news site: its name, host, sections and layout name.

    ``article_path`` and ``section_path`` are ``str.format`` patterns over the article's or
    section's fields; ``layout`` names the HTML templates in :mod:`demo_site.layouts`.
    """

    key: str
    name: str
    host: str
    layout: str
    sections: tuple[str, ...]
    article_path: str
    section_path: str
    section_page_path: str
    feed_path: str
    sitemap_path: str
    encoding: str = "utf-8"

    @property
    def base_url(self) -> str:
        return f"http://{self.host}"

    def url(self, path: str) -> str:
        return self.base_url + path

    def section_url(self, section: str, page: int = 1) -> str:
        pattern = self.section_path if page == 1 else self.section_page_path
        return self.url(pattern.format(section=section, page=page, offset=(page - 1) * 8))


@dataclass(frozen=True)
class Comment:
    author: str
    when: str
    text: str


@dataclass(frozen=True)
class BodyPart:
    """A piece of the article body: ``kind`` is ``"p"`` (paragraph) or ``"h2"`` (subheading)."""

    kind: str
    text: str


@dataclass
class Article:
    """One article with everything its page shows; ``truth_text`` is what to extract."""

    site: Site
    article_id: int
    section: str
    slug: str
    headline: str
    standfirst: str
    body: list[BodyPart]
    author: str
    author_role: str
    published: datetime
    updated: datetime | None
    image_caption: str
    comments: list[Comment]
    tags: list[str] = field(default_factory=list)

    @property
    def path(self) -> str:
        return self.site.article_path.format(
            section=self.section,
            slug=self.slug,
            id=self.article_id,
            y=self.published.year,
            m=f"{self.published.month:02d}",
            d=f"{self.published.day:02d}",
        )

    @property
    def url(self) -> str:
        return self.site.url(self.path)

    @property
    def paragraphs(self) -> list[str]:
        return [part.text for part in self.body if part.kind == "p"]

    @property
    def truth_text(self) -> str:
        """Headline, standfirst, then body paragraphs and subheadings, one per line-pair.

        Bylines, dates, captions, pull quotes, share tools, related teasers, comments and
        everything outside the story are not article text.
        """
        return "\n\n".join([self.headline, self.standfirst, *(part.text for part in self.body)])

    @property
    def snippet(self) -> str:
        """Teaser text for listings and related-story boxes."""
        return self.standfirst
