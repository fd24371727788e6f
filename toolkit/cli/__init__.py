"""The `patchwork` command line (toolkit.cli.app). Run as the console script or `python -m toolkit`,
Ctrl-C is handled from the first import on (toolkit.cli.interrupts)."""
from toolkit.cli import interrupts as _interrupts

if _interrupts.is_console_script():
    _interrupts.install_early()
