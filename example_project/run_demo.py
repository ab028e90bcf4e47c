#!/usr/bin/env python
"""Run the offline demo: serve the bundled news sites, crawl them into a database, print a summary.

python example_project/run_demo.py [--help]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from newsroom.demo import main

if __name__ == "__main__":
    sys.exit(main())
