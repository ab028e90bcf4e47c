"""URL patterns of the per-site overrides: validation, matching and precedence."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.integration.urlpatterns import (
    UrlPatternError,
    UrlRules,
    normalise_pattern,
    specificity,
)


@pytest.mark.parametrize(
    ("key", "pattern"),
    [
        ("example.com", "example.com"),
        (".Example.COM.", "example.com"),
        ("https://x.com", "https://x.com"),
        ("x.com:8080/a", "x.com:8080/a"),
        ("x.com:80", "http://x.com"),
        ("x.com/news/*", "x.com/news/*"),
        ("x.com/list?page=*&sort=new", "x.com/list?page=*&sort=new"),
        ("münchen.de/a", "xn--mnchen-3ya.de/a"),
        ("127.0.0.1:8000", "127.0.0.1:8000"),
    ],
)
def test_keys_are_normalised(key: str, pattern: str) -> None:
    assert normalise_pattern(key) == pattern


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("", "empty"),
        ("   ", "whitespace"),
        ("x.com /a", "whitespace"),
        ("*.x.com", "wildcard"),
        ("/news/", "host name"),
        ("//x.com", "host name"),
        ("https://", "host name"),
        ("ftp://x.com", "scheme"),
        ("x.com:port", "port"),
        ("x.com:0", "port"),
        ("user@x.com", "user name"),
        ("x.com/#top", "fragment"),
        ("x.com/a?=1", "query"),
        ("x.com/a?p*=1", "query"),
        ("x..com", "host name"),
        ("[::1]:80", "IPv6"),
        (3, "string"),
    ],
)
def test_keys_that_never_match_are_rejected(key: object, reason: str) -> None:
    with pytest.raises(UrlPatternError, match=reason):
        normalise_pattern(key)


RULES = UrlRules(
    (normalise_pattern(key), key)
    for key in [
        "example.com",
        "news.example.com",
        "www.example.com",
        "example.com/news/",
        "example.com/news/?page=*",
        "https://example.com",
        "example.com:8080",
        "shop.test/item/*/reviews",
        "shop.test/cart|",
    ]
)


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("http://example.com/a", "example.com"),
        ("http://deep.sub.example.com/a", "example.com"),
        ("http://a.news.example.com/x", "news.example.com"),
        ("https://example.com/a", "https://example.com"),
        ("http://www.example.com/x", "www.example.com"),
        ("http://example.com/news/1", "example.com/news/"),
        ("http://www.example.com/news/1", "example.com/news/"),
        ("http://example.com/news/?page=2", "example.com/news/?page=*"),
        ("http://example.com:8080/x", "example.com:8080"),
        ("http://example.com:9090/x", "example.com"),  # a key without a port: any port
        ("http://user:pw@example.com/x", "example.com"),
        ("http://shop.test/item/42/reviews", "shop.test/item/*/reviews"),
        ("http://shop.test/cart", "shop.test/cart|"),
        ("http://shop.test/cart/2", None),
        ("http://sub.shop.test/item/1/reviews", None),  # a path: no subdomains
        ("http://badexample.com/", None),
        ("not a url", None),
        ("", None),
        (None, None),
        ("http://[::1]/", None),
    ],
)
def test_the_most_specific_pattern_wins(url: str | None, key: str | None) -> None:
    assert RULES.match(url) == key


def test_precedence_is_path_then_labels_then_query_port_scheme() -> None:
    ordered = [
        "https://example.com",
        "example.com:8080",
        "example.com?id=*",
        "news.example.com",
        "example.com/a",
        "example.com/news/*",
    ]
    assert sorted(reversed(ordered), key=specificity) == ordered
    assert sorted(ordered, key=specificity) == ordered


def test_empty_rules_match_nothing() -> None:
    assert UrlRules[str]([]).match("http://example.com/") is None
