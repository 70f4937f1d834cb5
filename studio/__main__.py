import sys

from studio.cli.main import main

sys.exit(main())
