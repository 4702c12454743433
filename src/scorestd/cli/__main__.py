"""``python -m scorestd.cli``."""

import sys

from . import main

sys.exit(main())
