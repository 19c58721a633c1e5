import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while irlab is still loading: the same quiet exit as during a command
    sys.exit(130)

sys.exit(main())
