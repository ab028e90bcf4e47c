"""URL patterns for the per-site overrides, matched with url-matcher (the library web-poet uses).

Pattern syntax (url-matcher's, checked here so that a key that can never match fails at start-up):

* ``example.com``: the host and all its subdomains, any scheme, any path. A leading or trailing
  dot is ignored; a non-ASCII host is converted to its IDNA (``xn--``) form, as in request URLs.
* ``example.com/news/``: the host (and ``www.`` + host, url-matcher's rule) with a path that
  starts with ``/news/``; ``*`` in the path matches anything, a trailing ``|`` makes it exact.
* ``https://example.com``: only that scheme (``http`` or ``https``).
* ``example.com:8080``: only that port. A key without a port matches any port (url-matcher
  itself would match only the default one: this keeps a bare domain meaning its host).
* ``example.com/list?page=*``: the query must hold every parameter, with one of the values
  (``*`` in a value matches anything).

Rejected: empty keys, whitespace, ``*`` in the host, keys without a host (``/news/``),
other schemes, user names, IPv6 addresses, bad ports, fragments, query parameters without a name
or with ``*``. Two keys with the same normalised pattern (``example.com``, ``.Example.com``) are
rejected by the setting's parser.

Precedence: when several patterns match a URL, the most specific wins, comparing in order
(1) the number of path characters other than ``*`` and ``|``, (2) the number of host labels,
(3) the number of query parameters, (4) having a port, (5) having a scheme, and last the
normalised key text (so the order is total and does not depend on the order of the keys).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar
from urllib.parse import parse_qs, urlsplit, urlunsplit

if TYPE_CHECKING:
    from url_matcher import URLMatcher

__all__ = ["ACCEPTED", "UrlPatternError", "UrlRules", "normalise_pattern"]

T = TypeVar("T")

#: What a key may be, for error messages.
ACCEPTED = (
    "use a domain (example.com: the host and its subdomains), optionally with a scheme "
    "(https://), a port (:8080), a path (/news/, * as wildcard, | at the end for an exact "
    "path) and query parameters (?page=*)"
)

_LABEL = re.compile(r"^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$")
_SCHEMES = ("", "http", "https")


class UrlPatternError(ValueError):
    """A key that url-matcher cannot parse or that could never match; the message says why."""


class _Parts(NamedTuple):
    scheme: str
    host: str
    port: str | None
    path: str
    query: str


def normalise_pattern(key: object) -> str:
    """The url-matcher pattern for ``key``; raises :class:`UrlPatternError` saying what is wrong."""
    return _unsplit(_parse(key))


def _parse(key: object) -> _Parts:
    if not isinstance(key, str):
        raise UrlPatternError(f"a key must be a string, got {type(key).__name__}")
    if not key or any(char.isspace() for char in key):
        raise UrlPatternError("a key must not be empty nor contain whitespace")
    from url_matcher.patterns import pattern_parse  # imported when a crawl has patterns

    scheme, netloc, path, query, fragment = pattern_parse(key.lstrip("."))
    if fragment or key.endswith("#"):
        raise UrlPatternError("a fragment (#...) is never part of a response URL")
    if scheme.lower() not in _SCHEMES:
        raise UrlPatternError(f"the scheme must be http or https, got {scheme!r}")
    if not netloc:
        raise UrlPatternError("a key must start with a host name (example.com/news/)")
    if "@" in netloc:
        raise UrlPatternError("a key must not contain a user name (user@)")
    if netloc.startswith("["):
        raise UrlPatternError("IPv6 addresses are not supported")
    host, colon, port = netloc.partition(":")
    _check_query(query)
    return _Parts(scheme.lower(), _host(host), _port(port) if colon else None, path, query)


def _host(host: str) -> str:
    host = host.strip(".").lower()
    if "*" in host:
        raise UrlPatternError(
            "the host cannot hold a wildcard: a domain already matches all its subdomains"
            " (write example.com for *.example.com)"
        )
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        raise UrlPatternError(f"{host!r} is not a valid host name") from None
    if not all(_LABEL.match(label) for label in host.split(".")):
        raise UrlPatternError(f"{host!r} is not a valid host name")
    return host


def _port(port: str) -> str:
    if not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536:
        raise UrlPatternError(f"the port must be a number from 1 to 65535, got {port!r}")
    return str(int(port))


def _check_query(query: str) -> None:
    if not query:
        return
    names = list(parse_qs(query, keep_blank_values=True))
    if not names or any(not name or "*" in name for name in names):
        raise UrlPatternError(
            f"the query must be name=value parameters (* only in values), got {query!r}"
        )


def _unsplit(parts: _Parts) -> str:
    scheme = f"{parts.scheme}://" if parts.scheme else ""
    port = f":{parts.port}" if parts.port else ""
    query = f"?{parts.query}" if parts.query else ""
    return f"{scheme}{parts.host}{port}{parts.path}{query}"


def specificity(pattern: str) -> tuple[int, int, int, bool, bool, str]:
    """The sort key of a normalised pattern: larger is more specific (see the module doc)."""
    parts = _parse(pattern)
    literal_path = parts.path.replace("*", "").removesuffix("|")
    return (
        len(literal_path),
        len(parts.host.split(".")),
        len(parse_qs(parts.query, keep_blank_values=True)),
        parts.port is not None,
        bool(parts.scheme),
        pattern,
    )


class UrlRules(Generic[T]):
    """Normalised patterns with a value each; :meth:`match` gives the most specific match's.

    Patterns with a port are matched against the URL as is, the others against the URL without
    its port, so that a key without a port matches any port.
    """

    def __init__(self, rules: Iterable[tuple[str, T]]) -> None:
        ranked = sorted(rules, key=lambda rule: specificity(rule[0]))
        self.patterns: tuple[str, ...] = tuple(pattern for pattern, _ in ranked)
        self._values = dict(ranked)
        self._priority = {pattern: rank for rank, pattern in enumerate(self.patterns, 1)}
        self._with_port: URLMatcher | None = None
        self._without_port: URLMatcher | None = None
        if self.patterns:  # url-matcher (and what it imports) only when there are patterns
            from url_matcher import Patterns, URLMatcher

            self._with_port, self._without_port = URLMatcher(), URLMatcher()
            for pattern in self.patterns:
                matcher = self._with_port if _parse(pattern).port else self._without_port
                priority = self._priority[pattern]
                matcher.add_or_update(pattern, Patterns([pattern], priority=priority))

    def __len__(self) -> int:
        return len(self.patterns)

    def match(self, url: str | None) -> T | None:
        """The value of the most specific pattern matching ``url`` (None: none, or no URL)."""
        if self._with_port is None or self._without_port is None or not url:
            return None
        forms = _url_forms(url)
        if forms is None:
            return None
        full, portless = forms
        found = [
            pattern
            for pattern in (self._with_port.match(full), self._without_port.match(portless))
            if pattern is not None
        ]
        if not found:
            return None
        return self._values[max(found, key=self._priority.__getitem__)]


def _url_forms(url: str) -> tuple[str, str] | None:
    """``url`` without user name, and also without port; None if it has no (non-IPv6) host."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host or ":" in host:
        return None
    full = urlunsplit(parts._replace(netloc=f"{host}:{port}" if port else host))
    return full, urlunsplit(parts._replace(netloc=host))
