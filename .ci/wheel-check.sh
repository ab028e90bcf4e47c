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
"$work/venv/bin/python" "$repo/.ci/check_speedups.py"
