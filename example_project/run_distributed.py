#!/usr/bin/env python
"""Run a distributed crawl of a generated news network: local Redis, N crawler processes.

python example_project/run_distributed.py [--help]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from newsroom.distributed.runner import main

if __name__ == "__main__":
    sys.exit(main())
