"""Entry point of the frozen player viewer (`realmsmith-viewer`)."""

import sys

if __name__ == "__main__":
    try:
        from app.viewer import main
    except ImportError:  # TEMPORARY until app/viewer lands: the studio's smoke check
        import selftest

        sys.exit(selftest.run())
    sys.exit(main())
