"""The crawl-time learner: site keys, when templates ship, versions, freezing, saving."""

from __future__ import annotations

from scrapy_boilerplate.site.hashing import encode_hashes
from scrapy_boilerplate.site.learning import LearningConfig, SiteTemplateLearner, site_key
from scrapy_boilerplate.site.store import MemoryStore
from scrapy_boilerplate.site.templates import LEARN_KEY, SITE_TEMPLATES_KEY, SiteTemplates


def page_hashes(number: int) -> bytes:
    return encode_hashes([1, 2, 3, 1000 + number])


def test_site_key() -> None:
    assert site_key("https://WWW.Example.com:8080/a?b") == "example.com"
    assert site_key("http://news.example.com/") == "news.example.com"
    assert site_key(None) == site_key("not a url") == site_key("http://[bad") == ""


def test_templates_ship_after_min_pages_and_keep_their_version() -> None:
    learner = SiteTemplateLearner(MemoryStore(), LearningConfig(min_pages=4))
    url = "http://example.com/story"
    for number in range(3):
        assert learner.site_data(url) == {LEARN_KEY: True}
        assert not learner.learn(url, page_hashes(number))
    assert learner.learn(url, page_hashes(3))  # the 4th page: templates known
    assert "sites_learnt" not in learner.counters  # none sent with a page yet
    data = learner.site_data(url)
    templates = data[SITE_TEMPLATES_KEY]
    assert isinstance(templates, SiteTemplates)
    assert templates.hashes == {1, 2, 3} and templates.version == 1 and templates.pages == 4
    assert learner.site_data(url)[SITE_TEMPLATES_KEY] is templates  # encoded once
    assert learner.counters["sites_learnt"] == 1  # counted once per site
    assert learner.site_data("http://other.org/") == {LEARN_KEY: True}
    assert learner.site_data("data:,x") == {}
    assert not learner.learn(url, None)


def test_recomputed_every_tenth_of_the_pages_then_frozen() -> None:
    learner = SiteTemplateLearner(MemoryStore(), LearningConfig(min_pages=4, max_pages=60))
    url = "http://example.com/"
    refreshed = []
    for number in range(70):
        state = learner.state("example.com")
        before = (state.pages, state.version)
        learner.learn(url, encode_hashes([1, 1000 + number] + ([7] if number >= 30 else [])))
        if learner.state("example.com").version != before[1]:
            refreshed.append(before[0] + 1)
    state = learner.state("example.com")
    assert state.frozen and state.pages == 60 and state.counts == {}
    assert 7 in state.templates  # on 30 of 60 pages
    assert refreshed[0] == 4 and refreshed[-1] <= 60
    assert learner.site_data(url).get(LEARN_KEY) is None  # no more hashing for learning
    assert learner.counters["sites_frozen"] == 1


def test_states_are_saved_evicted_and_loaded_back() -> None:
    store = MemoryStore()
    config = LearningConfig(min_pages=2, max_sites=2, flush_every=100, save_batch=1)
    learner = SiteTemplateLearner(store, config)
    for number in range(3):
        learner.learn("http://a.com/", page_hashes(number))
    assert store.blobs == {}
    learner.learn("http://b.com/", page_hashes(0))
    learner.learn("http://c.com/", page_hashes(0))  # a.com leaves memory: saved
    assert set(store.blobs) == {"a.com"}
    again = learner.site_data("http://a.com/x")[SITE_TEMPLATES_KEY]
    assert again.hashes == {1, 2, 3} and learner.counters["loaded"] == 1
    learner.close()
    assert set(store.blobs) == {"a.com", "b.com", "c.com"}
    warm = SiteTemplateLearner(store, config)
    assert SITE_TEMPLATES_KEY in warm.site_data("http://a.com/")


def test_sites_leaving_memory_are_saved_in_batches_or_taken_back() -> None:
    store = MemoryStore()
    config = LearningConfig(min_pages=2, max_sites=1, flush_every=100, save_batch=2)
    learner = SiteTemplateLearner(store, config)
    for number in range(3):
        learner.learn("http://a.com/", page_hashes(number))
    learner.learn("http://b.com/", page_hashes(0))  # a.com leaves memory, waits for a batch
    assert store.blobs == {}
    data = learner.site_data("http://a.com/x")  # taken back unsaved, b.com waits
    assert data[SITE_TEMPLATES_KEY].hashes == {1, 2, 3} and "loaded" not in learner.counters
    learner.learn("http://c.com/", page_hashes(0))  # a.com leaves again: a batch of two
    assert set(store.blobs) == {"a.com", "b.com"} and learner.counters["saved"] == 2
    learner.close()
    assert set(store.blobs) == {"a.com", "b.com", "c.com"}
    state = store.load("a.com")
    assert state is not None and state.pages == 3
