#!/usr/bin/env bash
# Without a C compiler the package still installs and works, in pure Python: build the wheel
# with the compiler replaced by /bin/false (every compiled twin is optional), check that it
# holds no compiled module, install it into a fresh virtualenv and extract a page from an empty
# folder with the pure-Python code.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the tracked files only: no compiled module or build folder of an earlier build comes along
mkdir "$work/src"
git -C "$repo" ls-files -z | tar -C "$repo" --null -T - -cf - | tar -C "$work/src" -xf -
CC=/bin/false CXX=/bin/false LDSHARED=/bin/false \
    python -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" "$work/src"
wheel=$(ls "$work"/dist/*.whl)
python - "$wheel" <<'PY'
import sys
import zipfile

names = zipfile.ZipFile(sys.argv[1]).namelist()
compiled = [name for name in names if name.endswith((".so", ".pyd"))]
assert not compiled, f"a build without a compiler holds compiled modules: {compiled}"
assert "scrapy_boilerplate/page/segmentation.py" in names
PY
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$wheel"
cp "$repo/tests/fixtures/pages/article.html" "$work/page.html"

cd "$work"
"$work/venv/bin/scrapy-boilerplate" extract page.html > extracted.txt
grep -q "harbour bridge reopened" extracted.txt
"$work/venv/bin/python" - <<'PY'
from scrapy_boilerplate.classifiers.gbdt import ACCELERATED as TREES_ACCELERATED
from scrapy_boilerplate.features.nodes import ACCELERATED as NODES_ACCELERATED
from scrapy_boilerplate.page.segmentation import ACCELERATED

assert not (ACCELERATED or TREES_ACCELERATED or NODES_ACCELERATED), "compiled code was found"
print("no compiler: the pure-Python package installs and extracts")
PY
