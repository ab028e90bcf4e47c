#!/usr/bin/env bash
# The package works from a wheel with no repository around it: build the wheel, install it into
# a fresh virtualenv, and run the command line from an empty folder.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" "$repo"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$work"/dist/*.whl
cp "$repo/tests/fixtures/pages/article.html" "$work/page.html"

cd "$work"
"$work/venv/bin/scrapy-boilerplate" extract page.html > extracted.txt
test -s extracted.txt
# the shipped block model is package data of the wheel
"$work/venv/bin/scrapy-boilerplate" extract page.html --extractor article-learned > learned.txt
test -s learned.txt
"$work/venv/bin/scrapy-boilerplate" evaluate --help > /dev/null
"$work/venv/bin/python" - <<'PY'
import scrapy_boilerplate
from scrapy_boilerplate.page.segmentation import ACCELERATED
from scrapy_boilerplate.classifiers.gbdt import ACCELERATED as TREES_ACCELERATED
from scrapy_boilerplate.classifiers.crf_tagging import ACCELERATED as CRF_ACCELERATED
from scrapy_boilerplate.classifiers.features import ACCELERATED as FEATURES_ACCELERATED
from scrapy_boilerplate.classifiers.rules import ACCELERATED as RULES_ACCELERATED
from scrapy_boilerplate.classifiers.template import ACCELERATED as TEMPLATE_ACCELERATED
from scrapy_boilerplate.features.nodes import ACCELERATED as NODES_ACCELERATED
from scrapy_boilerplate.filters.isotonic import ACCELERATED as ISOTONIC_ACCELERATED
from scrapy_boilerplate.filters.tree import ACCELERATED as TREE_ACCELERATED

import os

assert "site-packages" in scrapy_boilerplate.__file__, scrapy_boilerplate.__file__
if os.environ.get("BOILERPLATE_REQUIRE_SPEEDUPS"):
    assert ACCELERATED, "the wheel was built without its compiled speedups"
    assert TREES_ACCELERATED, "the wheel was built without its compiled tree inference"
    for name, built in [
        ("CRF tagging", CRF_ACCELERATED),
        ("block feature matrix", FEATURES_ACCELERATED),
        ("neighbour rules", RULES_ACCELERATED),
        ("template scores", TEMPLATE_ACCELERATED),
        ("node table", NODES_ACCELERATED),
        ("tree smoothing", ISOTONIC_ACCELERATED),
        ("grouping keys", TREE_ACCELERATED),
    ]:
        assert built, f"the wheel was built without its compiled {name}"
print(f"wheel ok: version {scrapy_boilerplate.__version__}, compiled speedups: {ACCELERATED}")
PY
