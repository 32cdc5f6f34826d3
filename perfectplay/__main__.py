"""``python -m perfectplay ARGS``: the ``perfectplay`` command, for an environment where its
script is not on the ``PATH`` (the same :func:`perfectplay.cli.main`, the same exit codes)."""

import sys

from perfectplay.cli import main

sys.exit(main())
