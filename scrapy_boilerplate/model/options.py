"""Typed, validated extractor options.

Each extractor declares its options; unknown names and bad values raise ``ValueError`` naming
the option, so configuration errors surface before the first page.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Option", "validate_options", "COMMON_OPTIONS", "closest_name", "did_you_mean"]


@dataclass(frozen=True)
class Option:
    """One extractor parameter: a name, a type (bool, int, float or str, optionally limited to
    ``choices``), a default."""

    name: str
    type: type
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def coerce(self, value: Any) -> Any:
        """Return ``value`` as this option's type, or raise ``ValueError`` naming the option."""
        if self.type is str:
            if not isinstance(value, str):
                raise ValueError(f"option {self.name!r} must be a string, got {value!r}")
            if self.choices and value not in self.choices:
                raise ValueError(
                    f"option {self.name!r} must be one of {', '.join(self.choices)}, got {value!r}"
                )
            return value
        if self.type is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("1", "true", "yes", "0", "false", "no"):
                return value.lower() in ("1", "true", "yes")
            raise ValueError(f"option {self.name!r} must be a boolean, got {value!r}")
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(f"option {self.name!r} must be a {self.type.__name__}, got {value!r}")
        try:
            number = self.type(value)
        except (TypeError, ValueError):
            raise ValueError(
                f"option {self.name!r} must be a {self.type.__name__}, got {value!r}"
            ) from None
        if self.type is int and isinstance(value, float) and value != number:
            raise ValueError(f"option {self.name!r} must be an integer, got {value!r}")
        if self.minimum is not None and number < self.minimum:
            raise ValueError(f"option {self.name!r} must be >= {self.minimum}, got {value!r}")
        if self.maximum is not None and number > self.maximum:
            raise ValueError(f"option {self.name!r} must be <= {self.maximum}, got {value!r}")
        return number


#: Options every extractor accepts.
COMMON_OPTIONS: tuple[Option, ...] = (
    Option("include_html", bool, False, "also return the main content as clean HTML"),
    Option("include_markdown", bool, False, "also return the main content as Markdown"),
    Option(
        "strict_reference",
        bool,
        False,
        "segment exactly like the reference boilerpipe, accidental behaviours included",
    ),
    Option(
        "metadata",
        bool,
        False,
        "also read the article metadata (dates, authors, language, canonical URL, description, "
        "image); the Scrapy add-on, `extract --json/--metadata` and `extract-warc` turn it on",
    ),
)


def validate_options(
    extractor: str, declared: Iterable[Option], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Return every declared option's value (given or default), checked and coerced.

    Raises ``ValueError`` for an option the extractor does not have or a bad value.
    """
    by_name = {option.name: option for option in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        hint = did_you_mean(unknown[0], by_name)
        raise ValueError(
            f"extractor {extractor!r} has no option {unknown[0]!r} ({hint}its options: {known})"
        )
    return {
        name: option.coerce(given[name]) if name in given else option.default
        for name, option in by_name.items()
    }


def closest_name(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` is most likely a typo of (difflib similarity 0.75 or more)."""
    matches = difflib.get_close_matches(name, list(known), n=1, cutoff=0.75)
    return matches[0] if matches else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"did you mean 'x'? "`` for the closest known name, or ``""`` when none is close."""
    match = closest_name(name, known)
    return "" if match is None else f"did you mean {match!r}? "
