import sys

from rrag.tools.cli import main

sys.exit(main())
