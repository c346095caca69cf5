"""``python -m graphmem.cli``."""

from graphmem.cli import main

main()
