"""Run with an installed scrapy-boilerplate (a wheel): it is the installed copy, and with
``--require-speedups`` (or ``BOILERPLATE_REQUIRE_SPEEDUPS`` set) every compiled twin was built
into it. Used by ``wheel-check.sh`` and by cibuildwheel's test command (``pyproject.toml``)."""

import os
import sys

import scrapy_boilerplate
from scrapy_boilerplate.classifiers.crf_tagging import ACCELERATED as CRF_ACCELERATED
from scrapy_boilerplate.classifiers.features import ACCELERATED as FEATURES_ACCELERATED
from scrapy_boilerplate.classifiers.gbdt import ACCELERATED as TREES_ACCELERATED
from scrapy_boilerplate.classifiers.rules import ACCELERATED as RULES_ACCELERATED
from scrapy_boilerplate.classifiers.template import ACCELERATED as TEMPLATE_ACCELERATED
from scrapy_boilerplate.features.nodes import ACCELERATED as NODES_ACCELERATED
from scrapy_boilerplate.filters.isotonic import ACCELERATED as ISOTONIC_ACCELERATED
from scrapy_boilerplate.filters.tree import ACCELERATED as TREE_ACCELERATED
from scrapy_boilerplate.page.segmentation import ACCELERATED
from scrapy_boilerplate.site.hashing import ACCELERATED as HASHING_ACCELERATED

assert "site-packages" in scrapy_boilerplate.__file__, scrapy_boilerplate.__file__
if "--require-speedups" in sys.argv or os.environ.get("BOILERPLATE_REQUIRE_SPEEDUPS"):
    for name, built in [
        ("speedups", ACCELERATED),
        ("tree inference", TREES_ACCELERATED),
        ("CRF tagging", CRF_ACCELERATED),
        ("block feature matrix", FEATURES_ACCELERATED),
        ("neighbour rules", RULES_ACCELERATED),
        ("template scores", TEMPLATE_ACCELERATED),
        ("node table", NODES_ACCELERATED),
        ("tree smoothing", ISOTONIC_ACCELERATED),
        ("grouping keys", TREE_ACCELERATED),
        ("site template hashes", HASHING_ACCELERATED),
    ]:
        assert built, f"the wheel was built without its compiled {name}"
print(f"wheel ok: version {scrapy_boilerplate.__version__}, compiled speedups: {ACCELERATED}")
