import sys

from studio.entry import main

sys.exit(main())
