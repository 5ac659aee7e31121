import sys

from rrag.cli import main

sys.exit(main())
