"""Reading the BOILERPLATE_* settings, the add-on's defaults and the lazy re-exports."""

from __future__ import annotations

import subprocess
import sys

import pytest
from scrapy.settings import SETTINGS_PRIORITIES, Settings

from scrapy_boilerplate.integration import (
    Addon,
    BoilerplateDownloaderMiddleware,
    BoilerplatePipeline,
    BoilerplateSpiderMiddleware,
)
from scrapy_boilerplate.integration.settings import (
    DEFAULTS,
    BoilerplateConfig,
    SettingError,
    unknown_settings,
)


def config(**values: object) -> BoilerplateConfig:
    return BoilerplateConfig.from_settings(
        Settings({"BOILERPLATE_EXTRACTOR": "numwords", **values})
    )


def test_defaults() -> None:
    conf = BoilerplateConfig.from_settings(Settings())
    assert conf.default.name == "article"
    assert (conf.text_field, conf.title_field) == ("article_text", "article_title")
    assert conf.enabled and not conf.overwrite and conf.min_text_length == 0


def test_field_names() -> None:
    zyte = config(BOILERPLATE_FIELD_NAMES="zyte")
    assert (zyte.text_field, zyte.title_field) == ("articleBody", "headline")
    custom = config(BOILERPLATE_TEXT_FIELD="body", BOILERPLATE_TITLE_FIELD="")
    assert (custom.text_field, custom.title_field) == ("body", None)
    with pytest.raises(SettingError, match="BOILERPLATE_FIELD_NAMES"):
        config(BOILERPLATE_FIELD_NAMES="schema")


def test_metadata_field_names() -> None:
    default = config()
    assert default.metadata_fields["published"] == "article_published"
    assert not default.zyte_shapes
    zyte = config(BOILERPLATE_FIELD_NAMES="zyte")
    assert zyte.metadata_fields["image"] == "mainImage" and zyte.zyte_shapes
    assert config(BOILERPLATE_METADATA_FIELDS="False").metadata_fields == {}


def test_domain_override_matching() -> None:
    conf = config(
        BOILERPLATE_DOMAIN_OVERRIDES={
            "example.com": "keep-everything",
            "news.example.com": {"extractor": "density"},
            ".off.example.org": {"enabled": False},
        }
    )
    assert conf.choice_for_url("https://example.com/a").name == "keep-everything"
    assert conf.choice_for_url("https://www.example.com/a").name == "keep-everything"
    assert conf.choice_for_url("https://a.news.example.com/a").name == "density"
    assert conf.choice_for_url("https://badexample.com/a").name == "numwords"
    assert conf.choice_for_url("https://off.example.org/").extractor is None
    assert conf.choice_for_url("not a url").name == "numwords"


def test_url_pattern_overrides_pick_the_most_specific() -> None:
    conf = config(
        BOILERPLATE_DOMAIN_OVERRIDES={
            "example.com": "keep-everything",
            "example.com/news/": {"extractor": "density"},
            "example.com:8080": {"enabled": False},
        }
    )
    assert conf.choice_for_url("https://www.example.com/about").name == "keep-everything"
    assert conf.choice_for_url("https://example.com/news/1").name == "density"
    assert conf.choice_for_url("http://example.com:8080/").extractor is None
    assert conf.choice_for_url("http://example.com:8080/news/1").name == "density"


@pytest.mark.parametrize("key", ["https://x.com", "x.com:8080", "x.com/a/*", "x.com/?id=*"])
def test_url_pattern_keys_are_accepted(key: str) -> None:
    assert len(config(BOILERPLATE_DOMAIN_OVERRIDES={key: "density"}).domains) == 1


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("*.x.com", "wildcard"),
        ("", "empty"),
        (" x.com", "whitespace"),
        ("/news/", "host name"),
        ("x.com/#a", "fragment"),
        ("x.com/?=1", "query"),
    ],
)
def test_bad_override_keys_name_the_key_and_what_is_accepted(key: str, reason: str) -> None:
    with pytest.raises(SettingError) as raised:
        config(BOILERPLATE_DOMAIN_OVERRIDES={key: "density"})
    message = str(raised.value)
    assert f"BOILERPLATE_DOMAIN_OVERRIDES[{key!r}]" in message
    assert reason in message and "use a domain (example.com" in message


def test_two_keys_for_the_same_pattern_are_rejected() -> None:
    with pytest.raises(SettingError, match="same pattern as key 'example.com'"):
        config(BOILERPLATE_DOMAIN_OVERRIDES={"example.com": "density", ".Example.com": "numwords"})


def test_options_are_inherited_only_by_the_same_extractor() -> None:
    conf = BoilerplateConfig.from_settings(
        Settings(
            {
                "BOILERPLATE_EXTRACTOR": "article-rules",
                "BOILERPLATE_OPTIONS": {"ancestor_depth": 3},
                "BOILERPLATE_DOMAIN_OVERRIDES": {
                    "a.test": {"options": {"min_share": 0.4}},
                    "b.test": "numwords",
                },
            }
        )
    )
    a = conf.choice_for_url("http://a.test/")
    assert dict(a.options) == {"ancestor_depth": 3, "min_share": 0.4}
    assert a.extractor is not None and a.extractor.options["ancestor_depth"] == 3
    assert dict(conf.choice_for_url("http://b.test/").options) == {}
    meta = conf.choice_for_request("http://a.test/", {"boilerplate_options": {"ancestor_depth": 1}})
    assert dict(meta.options) == {"ancestor_depth": 1, "min_share": 0.4}
    assert conf.choice_for_request("http://x.test/", {}).extractor is conf.default.extractor


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"BOILERPLATE_EXTRACTOR": "nope"}, "BOILERPLATE_EXTRACTOR"),
        (
            {
                "BOILERPLATE_EXTRACTOR": "article-rules",
                "BOILERPLATE_OPTIONS": {"ancestor_depth": 99},
            },
            "ancestor_depth",
        ),
        ({"BOILERPLATE_OPTIONS": "not json"}, "BOILERPLATE_OPTIONS"),
        ({"BOILERPLATE_DOMAIN_OVERRIDES": {"a.test": {"extractr": "numwords"}}}, "'extractr'"),
        ({"BOILERPLATE_MIN_TEXT_LENGTH": -1}, "BOILERPLATE_MIN_TEXT_LENGTH"),
        ({"BOILERPLATE_THREADS": 1.5}, "BOILERPLATE_THREADS"),
        ({"BOILERPLATE_PROCESSES": "many"}, 'BOILERPLATE_PROCESSES must be .* \\(or "auto"\\)'),
        ({"BOILERPLATE_OVERWRITE": "maybe"}, "BOILERPLATE_OVERWRITE"),
        ({"BOILERPLATE_TEXT_FIELD": 3}, "BOILERPLATE_TEXT_FIELD"),
        ({"BOILERPLATE_METADATA_FIELDS": "some"}, "BOILERPLATE_METADATA_FIELDS"),
    ],
)
def test_bad_values_name_the_setting(values: dict[str, object], named: str) -> None:
    with pytest.raises(SettingError, match=named):
        config(**values)


@pytest.mark.parametrize(("cpus", "processes"), [(1, 0), (2, 1), (64, 1)])
def test_auto_processes_means_one_worker_when_a_second_cpu_is_usable(
    monkeypatch: pytest.MonkeyPatch, cpus: int, processes: int
) -> None:
    monkeypatch.setattr("scrapy_boilerplate.integration.settings.usable_cpus", lambda: cpus)
    assert config().processes == processes
    assert config(BOILERPLATE_PROCESSES=3).processes == 3
    assert config(BOILERPLATE_PROCESSES="0").processes == 0


def test_command_line_json_values() -> None:
    conf = config(BOILERPLATE_DOMAIN_OVERRIDES='{"a.test": "keep-everything"}')
    assert conf.choice_for_url("http://a.test/").name == "keep-everything"


def test_bad_request_meta_raises_setting_error() -> None:
    with pytest.raises(SettingError, match="boilerplate_extractor"):
        config().choice_for_request("http://a.test/", {"boilerplate_extractor": "nope"})


def test_a_request_choice_names_the_source_the_user_wrote() -> None:
    with pytest.raises(SettingError, match="^--extractor: unknown extractor 'nope'") as caught:
        config().choice_for_request(
            "http://a.test/", {"boilerplate_extractor": "nope"}, source="--extractor"
        )
    assert "meta[" not in str(caught.value)


def test_unknown_boilerplate_settings_are_named_with_the_likely_one() -> None:
    settings = Settings(
        {"BOILERPLATE_EXTRACTER": "numwords", "BOILERPLATE_FOO": 1, "DOWNLOAD_DELAY": 1}
    )
    settings.set("BOILERPLATE_EXTRACTOR", "article")
    settings.set("BOILERPLATE_SITE_STATE_URL", "redis://")  # reserved
    assert unknown_settings(settings, DEFAULTS) == [
        "Unknown setting BOILERPLATE_EXTRACTER is ignored (did you mean BOILERPLATE_EXTRACTOR?)",
        "Unknown setting BOILERPLATE_FOO is ignored (not a scrapy-boilerplate setting)",
    ]


def test_a_mistyped_override_key_is_told_the_key_it_looks_like() -> None:
    with pytest.raises(SettingError, match="unknown key 'option' \\(did you mean 'options'"):
        config(BOILERPLATE_DOMAIN_OVERRIDES={"a.test": {"option": {}}})


def test_addon_sets_components_and_defaults_below_user_settings() -> None:
    settings = Settings()
    settings.set("BOILERPLATE_EXTRACTOR", "numwords", priority="project")
    settings.set("ITEM_PIPELINES", {BoilerplatePipeline: 777}, priority="project")
    Addon().update_settings(settings)
    assert settings["BOILERPLATE_EXTRACTOR"] == "numwords"
    assert settings["BOILERPLATE_MAX_BODY_SIZE"] == 5 * 1024 * 1024
    assert settings.getpriority("BOILERPLATE_MAX_BODY_SIZE") == SETTINGS_PRIORITIES["addon"]
    assert settings.getdict("DOWNLOADER_MIDDLEWARES")[BoilerplateDownloaderMiddleware] == 545
    assert settings.getdict("SPIDER_MIDDLEWARES")[BoilerplateSpiderMiddleware] == 950
    assert settings.getdict("ITEM_PIPELINES")[BoilerplatePipeline] == 777
    assert (
        settings.getdict("DOWNLOADER_MIDDLEWARES_BASE")[
            "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware"
        ]
        > 545
    )


def test_addon_registers_the_contract_before_crawlers_exist() -> None:
    from scrapy_boilerplate.integration.contracts import BoilerplateContract

    settings = Settings()
    Addon.update_pre_crawler_settings(settings)
    assert settings.getdict("SPIDER_CONTRACTS") == {BoilerplateContract: 10}


def test_importing_the_package_does_not_import_scrapy() -> None:
    code = (
        "import sys, scrapy_boilerplate; assert 'scrapy' not in sys.modules; "
        "scrapy_boilerplate.article_of; assert 'scrapy' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_output_fields_and_text_format() -> None:
    plain = config()
    assert (plain.text_format, plain.markdown_field, plain.article_html_field) == (
        "text",
        None,
        None,
    )
    assert plain.output_options == {}  # nothing rendered that no field needs
    named = config(BOILERPLATE_MARKDOWN_FIELD=True, BOILERPLATE_ARTICLE_HTML_FIELD="body_html")
    assert (named.markdown_field, named.article_html_field) == ("article_markdown", "body_html")
    zyte = config(BOILERPLATE_FIELD_NAMES="zyte", BOILERPLATE_ARTICLE_HTML_FIELD=True)
    assert zyte.article_html_field == "articleBodyHtml"
    assert config(BOILERPLATE_TEXT_FORMAT="html").output_options == {"include_html": True}
    with pytest.raises(SettingError, match="BOILERPLATE_TEXT_FORMAT"):
        config(BOILERPLATE_TEXT_FORMAT="rst")
    with pytest.raises(SettingError, match="BOILERPLATE_MARKDOWN_FIELD"):
        config(BOILERPLATE_MARKDOWN_FIELD=3)


def test_every_extractor_of_the_crawl_renders_what_the_fields_need() -> None:
    conf = config(
        BOILERPLATE_MARKDOWN_FIELD="md",
        BOILERPLATE_OPTIONS={"include_markdown": False},
        BOILERPLATE_DOMAIN_OVERRIDES={"a.test": "density", "b.test": {"options": {}}},
    )
    choices = [
        conf.default,
        conf.choice_for_url("http://a.test/"),
        conf.choice_for_url("http://b.test/"),
        conf.choice_for_request("http://c.test/", {"boilerplate_extractor": "keep-everything"}),
    ]
    for choice in choices:
        assert choice.extractor is not None
        assert choice.extractor.options["include_markdown"], choice.name
        assert not choice.extractor.options["include_html"], choice.name
    assert conf.default.options == {"include_markdown": False}  # as configured, for inheritance


def test_zyte_common_items_classes_get_its_field_names_whatever_the_setting() -> None:
    zyte_common_items = pytest.importorskip("zyte_common_items")

    class MyArticle(zyte_common_items.Article):  # type: ignore[misc]
        pass

    conf = config()
    assert conf.fields_for(dict).text == "article_text"
    for item_class in (zyte_common_items.Article, MyArticle):
        fields = conf.fields_for(item_class)
        assert (fields.text, fields.title, fields.zyte_shapes) == ("articleBody", "headline", True)
        assert fields.metadata["authors"] == "authors"
    assert config(BOILERPLATE_TEXT_FIELD="").fields_for(zyte_common_items.Article).text is None
