"""Reading and validating the ``BOILERPLATE_*`` settings, per domain and per request.

Every extractor named in the settings is built (and its options checked) when a component is
created, so a typo fails the crawl at start-up with a :class:`SettingError` naming the setting.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scrapy.settings import BaseSettings

from ..errors import BoilerplateError
from ..extractors import Extractor, get_extractor
from ..model.options import closest_name, did_you_mean
from ..page.responses import DEFAULT_MAX_BODY_SIZE
from .urlpatterns import ACCEPTED, UrlPatternError, UrlRules, normalise_pattern

__all__ = [
    "DEFAULTS",
    "FIELD_NAME_SETS",
    "METADATA_FIELD_NAME_SETS",
    "OUTPUT_FIELD_NAME_SETS",
    "TEXT_FORMATS",
    "META_DONT_EXTRACT",
    "META_EXTRACTOR",
    "META_OPTIONS",
    "META_ITEM_POLICY",
    "EXTRACT_MODES",
    "ITEM_POLICIES",
    "RESERVED_SETTINGS",
    "BoilerplateConfig",
    "ExtractorChoice",
    "ItemFields",
    "SettingError",
    "unknown_settings",
]

#: Request meta key: skip extraction for this request's response.
META_DONT_EXTRACT = "dont_extract_boilerplate"
#: Request meta key: the extractor name for this request's response.
META_EXTRACTOR = "boilerplate_extractor"
#: Request meta key: extractor options (a dict) for this request's response.
META_OPTIONS = "boilerplate_options"
#: Request meta key: the item policy (``ITEM_POLICIES``) for items from this request's response.
META_ITEM_POLICY = "boilerplate_item_policy"

#: Item field names (text field, title field) selected by ``BOILERPLATE_FIELD_NAMES``.
FIELD_NAME_SETS: dict[str, tuple[str, str]] = {
    "default": ("article_text", "article_title"),
    "zyte": ("articleBody", "headline"),
}

#: Item field names of the article metadata (:class:`~scrapy_boilerplate.model.metadata.
#: ArticleMetadata` field -> item field) selected by ``BOILERPLATE_FIELD_NAMES``.
METADATA_FIELD_NAME_SETS: dict[str, dict[str, str]] = {
    "default": {
        "published": "article_published",
        "modified": "article_modified",
        "authors": "article_authors",
        "language": "article_language",
        "canonical_url": "article_canonical_url",
        "description": "article_description",
        "image": "article_image",
    },
    "zyte": {
        "published": "datePublished",
        "modified": "dateModified",
        "authors": "authors",
        "language": "inLanguage",
        "canonical_url": "canonicalUrl",
        "description": "description",
        "image": "mainImage",
    },
}

#: Item field names of the Markdown, the clean HTML, the reader comments, the provenance and
#: the page type (``BOILERPLATE_MARKDOWN_FIELD = True``, ``BOILERPLATE_ARTICLE_HTML_FIELD =
#: True``, ``BOILERPLATE_COMMENTS_FIELD = True``, ``BOILERPLATE_PROVENANCE_FIELD = True``,
#: ``BOILERPLATE_PAGE_TYPE_FIELD = True``) by
#: ``BOILERPLATE_FIELD_NAMES``; ``articleBodyHtml`` is zyte-common-items' field, the others are
#: not among its fields.
OUTPUT_FIELD_NAME_SETS: dict[str, dict[str, str]] = {
    "default": {
        "markdown": "article_markdown",
        "html": "article_html",
        "comments": "article_comments",
        "provenance": "article_provenance",
        "page_type": "article_page_type",
    },
    "zyte": {
        "markdown": "articleBodyMarkdown",
        "html": "articleBodyHtml",
        "comments": "articleComments",
        "provenance": "articleProvenance",
        "page_type": "pageType",
    },
}

#: ``BOILERPLATE_TEXT_FORMAT`` values: what the text field holds.
TEXT_FORMATS = ("text", "markdown", "html")

#: Every setting with its default (the add-on sets these with the ``addon`` priority).
DEFAULTS: dict[str, Any] = {
    "BOILERPLATE_ENABLED": True,
    "BOILERPLATE_EXTRACTOR": "article",
    "BOILERPLATE_OPTIONS": {},
    "BOILERPLATE_DOMAIN_OVERRIDES": {},
    "BOILERPLATE_FIELD_NAMES": "default",
    "BOILERPLATE_TEXT_FIELD": None,
    "BOILERPLATE_TITLE_FIELD": None,
    "BOILERPLATE_OVERWRITE": False,
    "BOILERPLATE_MAX_BODY_SIZE": DEFAULT_MAX_BODY_SIZE,
    "BOILERPLATE_SNIFF_TEXT": False,
    "BOILERPLATE_HTML_FIELD": None,
    "BOILERPLATE_URL_FIELD": "url",
    "BOILERPLATE_MIN_TEXT_LENGTH": 0,
    "BOILERPLATE_THREADS": 1,
    "BOILERPLATE_PROCESSES": "auto",
    "BOILERPLATE_TIMEOUT": 5.0,
    "BOILERPLATE_EXTRACT": "auto",
    "BOILERPLATE_ITEM_POLICY": "url",
    "BOILERPLATE_METADATA_FIELDS": True,
    "BOILERPLATE_TEXT_FORMAT": "text",
    "BOILERPLATE_MARKDOWN_FIELD": None,
    "BOILERPLATE_ARTICLE_HTML_FIELD": None,
    "BOILERPLATE_PROVENANCE_FIELD": None,
    "BOILERPLATE_COMMENTS_FIELD": None,
    "BOILERPLATE_PAGE_TYPE_FIELD": None,
}

#: Names with the add-on's prefix that it does not read (yet): not reported as unknown.
RESERVED_SETTINGS = ("BOILERPLATE_SITE_STATE_URL",)
#: The prefix of the settings the add-on owns.
_PREFIX = "BOILERPLATE_"

#: ``BOILERPLATE_EXTRACT`` values: on demand, at download time for the callbacks that usually
#: ask (:mod:`~scrapy_boilerplate.integration.demand`), or every HTML response at download time.
EXTRACT_MODES = ("auto", "on-demand", "always")
#: ``BOILERPLATE_ITEM_POLICY`` values (also the ``boilerplate_item_policy`` meta key): fill the
#: items whose URL field names the page, every item, or none.
ITEM_POLICIES = ("url", "all", "none")


class SettingError(BoilerplateError, ValueError):
    """A ``BOILERPLATE_*`` setting or meta key has a bad value; the message names it."""


@dataclass(frozen=True)
class ExtractorChoice:
    """The extractor to run (None: extraction disabled), with the options as configured."""

    name: str
    options: Mapping[str, Any]
    extractor: Extractor | None
    #: The ``BOILERPLATE_DOMAIN_OVERRIDES`` key whose pattern matched (None: the default).
    override: str | None = None
    #: Whether request meta keys changed the extractor or its options.
    by_meta: bool = False


@dataclass(frozen=True)
class ItemFields:
    """The item fields a crawl fills in one item class (None: not filled)."""

    text: str | None
    title: str | None
    markdown: str | None
    html: str | None
    #: Metadata field -> item field.
    metadata: Mapping[str, str]
    #: Whether metadata values take zyte-common-items shapes.
    zyte_shapes: bool
    provenance: str | None = None
    comments: str | None = None
    page_type: str | None = None

    def names(self) -> frozenset[str]:
        """Every field name it may fill."""
        named = (
            self.text,
            self.title,
            self.markdown,
            self.html,
            self.provenance,
            self.comments,
            self.page_type,
            *self.metadata.values(),
        )
        return frozenset(name for name in named if name is not None)


def is_zyte_item_class(item_class: type) -> bool:
    """Whether ``item_class`` is a zyte-common-items class, or a subclass of one."""
    return any(
        getattr(base, "__module__", "").partition(".")[0] == "zyte_common_items"
        for base in item_class.__mro__
    )


def _setting(settings: BaseSettings, name: str) -> Any:
    value = settings.get(name)
    return DEFAULTS[name] if value is None else value


def _bool(settings: BaseSettings, name: str) -> bool:
    try:
        return settings.getbool(name, DEFAULTS[name])
    except ValueError:
        raise SettingError(f"{name} must be a boolean, got {settings.get(name)!r}") from None


def _non_negative_int(settings: BaseSettings, name: str) -> int:
    value = _setting(settings, name)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise SettingError(f"{name} must be an integer, got {value!r}") from None
    if number < 0 or isinstance(value, bool) or (isinstance(value, float) and value != number):
        raise SettingError(f"{name} must be a non-negative integer, got {value!r}")
    return number


def _seconds(settings: BaseSettings, name: str) -> float:
    value = _setting(settings, name)
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise SettingError(f"{name} must be a number of seconds, got {value!r}") from None
    if not seconds >= 0 or isinstance(value, bool) or seconds == float("inf"):
        raise SettingError(f"{name} must be a non-negative number of seconds, got {value!r}")
    return seconds


def _one_of(settings: BaseSettings, name: str, allowed: tuple[str, ...]) -> str:
    value = _setting(settings, name)
    if value not in allowed:
        raise SettingError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def unknown_settings(settings: BaseSettings, known: Iterable[str]) -> list[str]:
    """One message per ``BOILERPLATE_*`` setting that is neither ``known`` nor reserved (Scrapy
    ignores such a name without a word), with the known name it is most likely a typo of."""
    names = {*known, *RESERVED_SETTINGS}
    messages = []
    for name in sorted(str(name) for name in settings):
        if not name.startswith(_PREFIX) or name in names:
            continue
        match = closest_name(name.removeprefix(_PREFIX), (n.removeprefix(_PREFIX) for n in names))
        hint = f"did you mean {_PREFIX}{match}?" if match else "not a scrapy-boilerplate setting"
        messages.append(f"Unknown setting {name} is ignored ({hint})")
    return messages


def usable_cpus() -> int:
    """The number of CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _processes(settings: BaseSettings) -> int:
    """``BOILERPLATE_PROCESSES``: ``"auto"`` is one worker process if :func:`usable_cpus` > 1."""
    if _setting(settings, "BOILERPLATE_PROCESSES") == "auto":
        return 1 if usable_cpus() > 1 else 0
    try:
        return _non_negative_int(settings, "BOILERPLATE_PROCESSES")
    except SettingError as exc:
        raise SettingError(f'{exc} (or "auto")') from None


def _optional_field(
    settings: BaseSettings, name: str, default: str | None, named: str | None = None
) -> str | None:
    """A field-name setting: unset -> ``default``; ``""`` or False -> the field is not filled;
    True -> ``named`` (the naming scheme's field), when given."""
    value = settings.get(name)
    if value is None:
        return default
    if value is True and named is not None:
        return named
    if value == "" or value is False:
        return None
    if not isinstance(value, str):
        raise SettingError(f"{name} must be a field name (str), got {value!r}")
    return value


def _options_dict(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if isinstance(value, BaseSettings):
        value = value.copy_to_dict()
    if isinstance(value, str):  # -s NAME='{"...": ...}' on the command line
        try:
            value = json.loads(value)
        except ValueError:
            raise SettingError(f"{where} must be a dict or JSON object, got {value!r}") from None
    if not isinstance(value, Mapping):
        raise SettingError(f"{where} must be a dict of extractor options, got {value!r}")
    return dict(value)


def _output_options(
    text_format: str, markdown_field: str | None, article_html_field: str | None
) -> dict[str, Any]:
    """The options that make extractors render what the item fields need (none: no cost)."""
    options: dict[str, Any] = {}
    if text_format == "markdown" or markdown_field is not None:
        options["include_markdown"] = True
    if text_format == "html" or article_html_field is not None:
        options["include_html"] = True
    return options


def _build(
    name: Any, options: Mapping[str, Any], where: str, forced: Mapping[str, Any]
) -> Extractor:
    """Extractor ``name`` with ``options`` and the ``forced`` ones over them; in a crawl the
    metadata is read unless an option says ``metadata: False`` (the item fields and page
    objects need it)."""
    if not isinstance(name, str) or not name:
        raise SettingError(f"{where}: the extractor must be a name (str), got {name!r}")
    try:
        return get_extractor(name, **{"metadata": True, **options, **forced})
    except (TypeError, ValueError) as exc:
        raise SettingError(f"{where}: {exc}") from None


@dataclass
class BoilerplateConfig:
    """All ``BOILERPLATE_*`` settings of one crawler, checked.

    Option inheritance rule (domains and request meta): a level that keeps the extractor of the
    level above also inherits its options (its own options win per key); a level that names
    another extractor starts from that extractor's defaults.
    """

    enabled: bool
    default: ExtractorChoice
    domains: UrlRules[ExtractorChoice]
    text_field: str | None
    title_field: str | None
    overwrite: bool
    max_body_size: int
    sniff_text: bool
    html_field: str | None
    url_field: str | None
    min_text_length: int
    threads: int
    processes: int
    timeout: float
    #: One of :data:`EXTRACT_MODES`.
    extract_mode: str
    item_policy: str
    #: Metadata field -> item field (empty: ``BOILERPLATE_METADATA_FIELDS`` is off).
    metadata_fields: Mapping[str, str] = field(default_factory=dict)
    #: Whether metadata values take zyte-common-items shapes (``BOILERPLATE_FIELD_NAMES="zyte"``).
    zyte_shapes: bool = False
    #: What the text field holds (``TEXT_FORMATS``).
    text_format: str = "text"
    #: Item fields for the Markdown and the clean HTML (None: not filled).
    markdown_field: str | None = None
    article_html_field: str | None = None
    #: Item field for what made the article (extractor, options digest, version, override).
    provenance_field: str | None = None
    #: Item field for the reader comments (None: not filled).
    comments_field: str | None = None
    #: Item field for the page type (None: not filled).
    page_type_field: str | None = None
    #: Extractor options every extractor of the crawl gets so the fields above can be filled.
    output_options: Mapping[str, Any] = field(default_factory=dict)
    _cache: dict[tuple[Any, ...], Extractor] = field(default_factory=dict, repr=False)

    def fields_for(self, item_class: type) -> ItemFields:
        """The fields to fill in an ``item_class`` item. A zyte-common-items class (``Article``,
        or a subclass) gets that package's names (``articleBody``, ``headline``, ...) and value
        shapes whatever ``BOILERPLATE_FIELD_NAMES`` says; a field turned off stays off."""
        if self.zyte_shapes or not is_zyte_item_class(item_class):
            return ItemFields(
                self.text_field,
                self.title_field,
                self.markdown_field,
                self.article_html_field,
                self.metadata_fields,
                self.zyte_shapes,
                self.provenance_field,
                self.comments_field,
                self.page_type_field,
            )
        text, title = FIELD_NAME_SETS["zyte"]
        outputs = OUTPUT_FIELD_NAME_SETS["zyte"]
        return ItemFields(
            text if self.text_field is not None else None,
            title if self.title_field is not None else None,
            outputs["markdown"] if self.markdown_field is not None else None,
            outputs["html"] if self.article_html_field is not None else None,
            METADATA_FIELD_NAME_SETS["zyte"] if self.metadata_fields else {},
            True,
            outputs["provenance"] if self.provenance_field is not None else None,
            outputs["comments"] if self.comments_field is not None else None,
            outputs["page_type"] if self.page_type_field is not None else None,
        )

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> BoilerplateConfig:
        """Read and check every setting; raises :class:`SettingError` naming the bad one."""
        field_names = _setting(settings, "BOILERPLATE_FIELD_NAMES")
        if field_names not in FIELD_NAME_SETS:
            known = ", ".join(sorted(FIELD_NAME_SETS))
            raise SettingError(
                f"BOILERPLATE_FIELD_NAMES must be one of {known}, got {field_names!r}"
            )
        text_default, title_default = FIELD_NAME_SETS[field_names]
        outputs = OUTPUT_FIELD_NAME_SETS[field_names]
        text_format = _one_of(settings, "BOILERPLATE_TEXT_FORMAT", TEXT_FORMATS)
        markdown_field = _optional_field(
            settings, "BOILERPLATE_MARKDOWN_FIELD", None, outputs["markdown"]
        )
        article_html_field = _optional_field(
            settings, "BOILERPLATE_ARTICLE_HTML_FIELD", None, outputs["html"]
        )
        forced = _output_options(text_format, markdown_field, article_html_field)
        name = _setting(settings, "BOILERPLATE_EXTRACTOR")
        options = _options_dict(settings.get("BOILERPLATE_OPTIONS"), "BOILERPLATE_OPTIONS")
        default = ExtractorChoice(
            name,
            options,
            _build(name, options, "BOILERPLATE_EXTRACTOR/BOILERPLATE_OPTIONS", forced),
        )
        return cls(
            enabled=_bool(settings, "BOILERPLATE_ENABLED"),
            default=default,
            domains=_domain_overrides(
                settings.get("BOILERPLATE_DOMAIN_OVERRIDES"), default, forced
            ),
            text_field=_optional_field(settings, "BOILERPLATE_TEXT_FIELD", text_default),
            title_field=_optional_field(settings, "BOILERPLATE_TITLE_FIELD", title_default),
            overwrite=_bool(settings, "BOILERPLATE_OVERWRITE"),
            max_body_size=_non_negative_int(settings, "BOILERPLATE_MAX_BODY_SIZE"),
            sniff_text=_bool(settings, "BOILERPLATE_SNIFF_TEXT"),
            html_field=_optional_field(settings, "BOILERPLATE_HTML_FIELD", None),
            url_field=_optional_field(settings, "BOILERPLATE_URL_FIELD", "url"),
            min_text_length=_non_negative_int(settings, "BOILERPLATE_MIN_TEXT_LENGTH"),
            threads=_non_negative_int(settings, "BOILERPLATE_THREADS"),
            processes=_processes(settings),
            timeout=_seconds(settings, "BOILERPLATE_TIMEOUT"),
            extract_mode=_one_of(settings, "BOILERPLATE_EXTRACT", EXTRACT_MODES),
            item_policy=_one_of(settings, "BOILERPLATE_ITEM_POLICY", ITEM_POLICIES),
            metadata_fields=(
                METADATA_FIELD_NAME_SETS[field_names]
                if _bool(settings, "BOILERPLATE_METADATA_FIELDS")
                else {}
            ),
            zyte_shapes=field_names == "zyte",
            text_format=text_format,
            markdown_field=markdown_field,
            article_html_field=article_html_field,
            provenance_field=_optional_field(
                settings, "BOILERPLATE_PROVENANCE_FIELD", None, outputs["provenance"]
            ),
            comments_field=_optional_field(
                settings, "BOILERPLATE_COMMENTS_FIELD", None, outputs["comments"]
            ),
            page_type_field=_optional_field(
                settings, "BOILERPLATE_PAGE_TYPE_FIELD", None, outputs["page_type"]
            ),
            output_options=forced,
        )

    def choice_for_url(self, url: str | None) -> ExtractorChoice:
        """The extractor for ``url``: the most specific matching override, else the default.

        Patterns and precedence: :mod:`~scrapy_boilerplate.integration.urlpatterns` (a bare
        domain matches its host and every subdomain: ``example.com`` matches
        ``www.example.com``, not ``badexample.com``).
        """
        choice = self.domains.match(url)
        return self.default if choice is None else choice

    def choice_for_request(
        self, url: str, meta: Mapping[str, Any], *, source: str | None = None
    ) -> ExtractorChoice:
        """The URL's choice, changed by the ``boilerplate_extractor``/``boilerplate_options`` meta.

        Raises :class:`SettingError` naming the meta keys, or ``source`` (where the user wrote
        the name, e.g. a command-line option) when given, for a bad name or option.
        """
        base = self.choice_for_url(url)
        name = meta.get(META_EXTRACTOR)
        extra = meta.get(META_OPTIONS)
        if name is None and not extra:
            return base
        name = base.name if name is None else name
        options = dict(base.options) if name == base.name else {}
        options.update(_options_dict(extra, f"meta[{META_OPTIONS!r}]"))
        where = source or f"meta[{META_EXTRACTOR!r}]/meta[{META_OPTIONS!r}]"
        extractor = self._cached(name, options, where)
        return ExtractorChoice(name, options, extractor, base.override, by_meta=True)

    def item_policy_for(self, meta: Mapping[str, Any]) -> str:
        """``BOILERPLATE_ITEM_POLICY``, or the request's ``boilerplate_item_policy`` meta value.

        Raises :class:`SettingError` naming the meta key for a value not in ``ITEM_POLICIES``.
        """
        policy = meta.get(META_ITEM_POLICY, self.item_policy)
        if policy not in ITEM_POLICIES:
            raise SettingError(
                f"meta[{META_ITEM_POLICY!r}] must be one of {', '.join(ITEM_POLICIES)},"
                f" got {policy!r}"
            )
        return str(policy)

    def _cached(self, name: Any, options: Mapping[str, Any], where: str) -> Extractor:
        try:
            key = (name, tuple(sorted(options.items())))
            hash(key)
        except TypeError:
            return _build(name, options, where, self.output_options)
        if key not in self._cache:
            self._cache[key] = _build(name, options, where, self.output_options)
        return self._cache[key]


def _override_pattern(key: Any, where: str, seen: Mapping[str, Any]) -> str:
    """The url-matcher pattern of an override key; :class:`SettingError` saying what is wrong."""
    try:
        pattern = normalise_pattern(key)
    except UrlPatternError as exc:
        raise SettingError(f"{where}: {exc}; {ACCEPTED}") from None
    if pattern in seen:
        raise SettingError(f"{where}: the same pattern as key {seen[pattern]!r} ({pattern!r})")
    return pattern


def _domain_overrides(
    value: Any, default: ExtractorChoice, forced: Mapping[str, Any]
) -> UrlRules[ExtractorChoice]:
    """Parse ``BOILERPLATE_DOMAIN_OVERRIDES``: URL patterns (see
    :mod:`~scrapy_boilerplate.integration.urlpatterns`) to choices.

    Each value is an extractor name, or a dict with any of ``extractor``, ``options`` and
    ``enabled`` (False: no extraction on the matching URLs).
    """
    setting = "BOILERPLATE_DOMAIN_OVERRIDES"
    overrides = _options_dict(value, setting)
    parsed: list[tuple[str, ExtractorChoice]] = []
    keys: dict[str, Any] = {}
    for key, spec in overrides.items():
        where = f"{setting}[{key!r}]"
        domain = _override_pattern(key, where, keys)
        keys[domain] = key
        if isinstance(spec, str):
            spec = {"extractor": spec}
        if not isinstance(spec, Mapping):
            raise SettingError(f"{where} must be an extractor name or a dict, got {spec!r}")
        unknown = sorted(set(spec) - {"extractor", "options", "enabled"})
        if unknown:
            hint = did_you_mean(unknown[0], ("extractor", "options", "enabled"))
            raise SettingError(
                f"{where} has unknown key {unknown[0]!r} ({hint}use extractor, options, enabled)"
            )
        name = spec.get("extractor", default.name)
        options = dict(default.options) if name == default.name else {}
        options.update(_options_dict(spec.get("options"), f"{where}['options']"))
        extractor = _build(name, options, where, forced)
        if spec.get("enabled", True) is False:
            parsed.append((domain, ExtractorChoice(name, options, None, str(key))))
        else:
            parsed.append((domain, ExtractorChoice(name, options, extractor, str(key))))
    return UrlRules(parsed)
