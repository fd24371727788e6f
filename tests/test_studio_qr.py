"""The QR codes the studio prints for its network links: each one decodes to its link (read by
zbar's `zbarimg` when it is installed), at every version and with every mask."""
from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from toolkit.studio import qr

ZBARIMG = shutil.which("zbarimg")
needs_zbar = pytest.mark.skipif(ZBARIMG is None, reason="zbar's zbarimg is not installed (apt-get install zbar-tools)")
LINK = "http://192.168.1.20:41234/?token=cVf8Z_woj2X-NEl5LDcf5lIGVi4IJtzy"


def write_png(modules: qr.Matrix, path: Path, scale: int = 6, quiet: int = 4) -> None:
    """A grey-scale PNG of the modules, dark on white, with a quiet zone."""
    size = (len(modules) + 2 * quiet) * scale
    rows = []
    for y in range(size):
        my = y // scale - quiet
        row = bytearray([0])
        for x in range(size):
            mx = x // scale - quiet
            dark = 0 <= my < len(modules) and 0 <= mx < len(modules) and modules[my][mx]
            row.append(0 if dark else 255)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


def decoded(modules: qr.Matrix, tmp_path: Path) -> str:
    image = tmp_path / "code.png"
    write_png(modules, image)
    out = subprocess.run([ZBARIMG, "-q", "--raw", str(image)], capture_output=True, text=True, timeout=60)
    return out.stdout.rstrip("\n")


@needs_zbar
@pytest.mark.parametrize("text", ["hi", LINK, "x" * 60, "y" * 120, "z" * 150, "w" * 210])
def test_a_code_decodes_to_its_text_at_every_size(tmp_path, text):
    modules = qr.encode(text)
    assert len(modules) in (21 + 4 * v for v in range(10))
    assert decoded(modules, tmp_path) == text


@needs_zbar
@pytest.mark.parametrize("mask", range(8))
def test_every_mask_decodes(tmp_path, mask):
    version, codewords = qr._codewords(LINK.encode())
    symbol = qr._Symbol(version)
    symbol.place(codewords)
    assert decoded(symbol.masked(mask), tmp_path) == LINK


def test_a_link_too_long_for_the_largest_version_is_refused():
    with pytest.raises(ValueError, match="do not fit"):
        qr.encode("x" * 400)


def test_the_terminal_drawing_is_two_rows_of_modules_per_line():
    modules = qr.encode(LINK)
    lines = qr.terminal(LINK).split("\n")
    size = len(modules) + 2 * qr.QUIET
    assert len(lines) == (size + 1) // 2
    for line in lines:
        assert line.startswith("\x1b[30;107m") and line.endswith("\x1b[0m")
        assert len(line) - len("\x1b[30;107m") - len("\x1b[0m") == size
    # the top-left finder's first two rows: seven dark modules over a dark one at each end
    first = lines[qr.QUIET // 2][len("\x1b[30;107m"):]
    assert first[:qr.QUIET + 8] == " " * qr.QUIET + "\u2588" + "\u2580" * 5 + "\u2588" + " "
