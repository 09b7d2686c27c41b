import sys

from app.viewer import main

sys.exit(main())
