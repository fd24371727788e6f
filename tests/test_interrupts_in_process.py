"""`main()` called as a function (as tests and scripts do) hands Ctrl-C back when it returns: the
command line's watcher, which ends a `patchwork` process on Ctrl-C, must not stay behind in a
process that goes on (it ended a whole test run with exit code 130 when a later test pressed the
key)."""
from __future__ import annotations

import signal
import sys
import threading

import pytest

from toolkit.cli.app import main


def test_main_called_in_process_leaves_ctrl_c_as_it_found_it(monkeypatch, capsys):
    before = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(sys, "argv", ["patchwork", "--version"])  # as tests/test_build.py calls it
    with pytest.raises(SystemExit):
        main()
    capsys.readouterr()
    assert signal.getsignal(signal.SIGINT) is before
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            for _ in range(1000):  # the handler runs between bytecodes
                pass
    finally:
        signal.signal(signal.SIGINT, previous)
