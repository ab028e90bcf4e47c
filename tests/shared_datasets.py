"""Where the tests find the shared datasets: ``$BOILERPLATE_DATASETS``, else
``../shared/datasets`` beside the repository (tests that need them skip when absent)."""

from __future__ import annotations

import os
from pathlib import Path

SHARED_DATASETS = Path(
    os.environ.get("BOILERPLATE_DATASETS")
    or Path(__file__).resolve().parents[2] / "shared" / "datasets"
)
