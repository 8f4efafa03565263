"""The ``epipen`` command, installed with the package: the same program as the one
``cargo install`` builds (``epipen_cli::main``), run inside this Python."""

from __future__ import annotations

import os
import shutil
import signal
import sys


def main() -> None:
    from . import _native

    # Ctrl-C ends the command like any other (exit status 130), as the native one does,
    # instead of waiting for Python to see a KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # `epipen bench` runs stories as child processes of the epipen command: this one.
    exe = shutil.which(sys.argv[0]) or sys.argv[0]
    os.environ.setdefault("EPIPEN_EXE", os.path.abspath(exe))
    sys.stdout.flush()
    sys.exit(_native.cli_main(["epipen", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
