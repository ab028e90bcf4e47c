"""Test-wide setup: dataset names resolve under the shared datasets folder."""

from __future__ import annotations

import os

from shared_datasets import SHARED_DATASETS

os.environ.setdefault("BOILERPLATE_DATASETS", str(SHARED_DATASETS))
