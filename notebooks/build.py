"""Build, execute and write the notebooks: ``python notebooks/build.py [SCRIPT ...]``.

The one entry point of the ``build_<stem>.py`` scripts (see ``_nbbuild.py``); ``--check``
compares each script's cells with its committed notebook without executing anything.
"""

import sys

from _nbbuild import main

if __name__ == "__main__":
    sys.exit(main())
