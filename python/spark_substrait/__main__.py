"""``python -m spark_substrait run PLAN ...``: the same as the ``spark-substrait`` command."""

import sys

from spark_substrait.cli import main

sys.exit(main())
