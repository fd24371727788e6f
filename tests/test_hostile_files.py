"""The file guards themselves: capped reads of regular files only, nesting found without parsing,
output targets checked before work, several files written as one step."""
from __future__ import annotations

import errno
import json
import os
import stat
import time

import pytest

from toolkit import fileio
from toolkit.errors import InputError, OutputError
from toolkit.specs.source import nesting_beyond


@pytest.mark.parametrize("text, depth", [
    ("{}", 1), ("[]", 1), ("1", 0), ('{"a": "[[[[{{"}', 1), ('[["]\\"]]"]]', 2),
    ('{"a": [1, {"b": [[]]}]}', 5), ("[" * 500 + "]" * 500, 500),
])
def test_json_depth_is_found_without_parsing(text, depth):
    assert fileio.json_depth(text) == depth
    if depth < 500:
        assert fileio.json_depth(text) == _parsed_depth(json.loads(text))


def _parsed_depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max((_parsed_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_parsed_depth(v) for v in value), default=0)
    return 0


def test_deep_json_is_refused_before_parsing():
    with pytest.raises(InputError, match="nested 200,000 levels deep; at most 16"):
        fileio.check_json_depth("[" * 200_000 + "]" * 200_000, 16, "rec.json")
    fileio.check_json_depth('{"a": [1]}', 2)


def test_nesting_scan_of_yaml_text():
    assert nesting_beyond("a:\n  b:\n    c: [1, {d: 2}]\n", 5) is None
    assert nesting_beyond("a:\n  b:\n    c: [1, {d: 2}]\n", 4) == (3, 12)
    assert nesting_beyond("a: '[[[[[[[['\nb: \"{{{{{{\"  # [[[[[[\n", 2) is None
    assert nesting_beyond("- - - - - x\n", 3) == (1, 1)
    deep = "k: " + "[" * 100_000 + "]" * 100_000
    started = time.thread_time()
    assert nesting_beyond(deep, 128) == (1, 131)
    assert time.thread_time() - started < 1  # a scan, not a parse: this thread's CPU, some 0.02 s


def test_reads_refuse_what_is_not_a_regular_file(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.json"
    os.symlink("loop.json", loop)
    with pytest.raises(InputError, match="is a FIFO"):  # refused, not waited on
        fileio.read_capped_bytes(fifo, 100, "record file")
    with pytest.raises(InputError, match="is a symlink loop"):
        fileio.read_capped_bytes(loop, 100, "record file")
    with pytest.raises(InputError, match="is a directory"):
        fileio.read_capped_bytes(tmp_path, 100, "record file")
    with pytest.raises(InputError, match="is a character device"):
        fileio.read_capped_bytes("/dev/zero", 100, "record file")
    with pytest.raises(InputError, match="no such record file"):
        fileio.read_capped_bytes(tmp_path / "missing", 100, "record file")
    big = tmp_path / "big.json"
    big.write_bytes(b"x" * 101)
    with pytest.raises(InputError, match="is 101 bytes; a record file is at most 100 bytes"):
        fileio.read_capped_bytes(big, 100, "record file")
    big.write_bytes(b"\xff")
    with pytest.raises(InputError, match="byte 0 is not UTF-8"):
        fileio.read_capped_text(big, 100, "record file")


@pytest.mark.parametrize("make, message", [
    (lambda p: os.mkfifo(p), "it is a FIFO"),
    (lambda p: os.mknod(p, stat.S_IFCHR | 0o666, os.makedev(1, 3)), "it is a character device"),
    (lambda p: p.mkdir(), "it is a directory"),
    (lambda p: os.symlink(p.name, p), "it is a symlink loop"),
    (lambda p: os.symlink("nowhere/at/all", p), "a link to a missing file"),
])
def test_special_targets_are_never_replaced(tmp_path, make, message):
    target = tmp_path / "target"
    make(target)
    before = os.lstat(target)
    with pytest.raises(OutputError, match=message):
        fileio.atomic_write_bytes(target, b"data")
    after = os.lstat(target)
    assert stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode) and after.st_ino == before.st_ino
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]


def test_a_link_to_a_regular_file_is_written_through(tmp_path):
    (tmp_path / "real.txt").write_text("old")
    os.symlink("real.txt", tmp_path / "link.txt")
    fileio.atomic_write_text(tmp_path / "link.txt", "new")
    assert os.path.islink(tmp_path / "link.txt") and (tmp_path / "real.txt").read_text() == "new"


def test_bad_names_are_refused_before_any_work(tmp_path):
    with pytest.raises(OutputError, match="empty file name"):
        fileio.check_target("")
    with pytest.raises(OutputError, match="longer than the file system allows"):
        fileio.check_target(tmp_path / ("x" * 300))
    (tmp_path / "plain").write_text("x")
    with pytest.raises(OutputError, match="plain is a file, not a folder"):
        fileio.check_target(tmp_path / "plain" / "deeper" / "out.pdf")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]


def test_several_files_are_written_all_or_nothing(tmp_path, monkeypatch):
    out = tmp_path / "new" / "folder"
    real_fsync = os.fsync
    calls = {"n": 0}

    def full_disk(fd):
        calls["n"] += 1
        if calls["n"] == 2:  # the second file does not fit
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OutputError, match="results.md: No space left on device"):
        fileio.write_files({out / "results.json": b"{}", out / "results.md": b"# x"})
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # not even the folders it made
    monkeypatch.setattr(os, "fsync", real_fsync)
    fileio.write_files({out / "results.json": b"{}", out / "results.md": b"# x"})
    assert sorted(p.name for p in out.iterdir()) == ["results.json", "results.md"]


def test_counts_are_bounded():
    assert fileio.check_count(3, 1, 100, "seats") == 3
    for bad in (0, 101, 10**400, True, "3", 2.0):
        with pytest.raises(InputError, match="seats: expected a whole number from 1 to 100"):
            fileio.check_count(bad, 1, 100, "seats")


def test_a_staged_build_appears_whole_or_not_at_all(tmp_path):
    from toolkit.render.build import staged
    from toolkit.render.documents import Written

    out = tmp_path / "kit"
    out.mkdir()
    (out / "a.pdf").write_bytes(b"old a")

    def half(folder):
        (folder / "a.pdf").write_bytes(b"new a")
        raise RuntimeError("interrupted after the first file")

    with pytest.raises(RuntimeError):
        staged(out, half)
    assert sorted(p.name for p in out.iterdir()) == ["a.pdf"] and (out / "a.pdf").read_bytes() == b"old a"

    def both(folder):
        for name in ("a.pdf", "b.pdf"):
            (folder / name).write_bytes(b"new " + name.encode())
        return [Written(folder / name, 1, 5) for name in ("a.pdf", "b.pdf")]

    from toolkit.errors import UsageError

    with pytest.raises(UsageError, match="a.pdf already exists"):
        staged(out, both, overwrite=False)
    assert sorted(p.name for p in out.iterdir()) == ["a.pdf"]
    written = staged(out, both)
    assert [w.path for w in written] == [out / "a.pdf", out / "b.pdf"]
    # (beside them the hidden list of the files the toolkit wrote there, .patchwork-files.json)
    assert (out / "a.pdf").read_bytes() == b"new a.pdf"
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["a.pdf", "b.pdf"]
    fresh = tmp_path / "fresh"
    staged(fresh, both)
    assert sorted(p.name for p in fresh.iterdir() if not p.name.startswith(".")) == ["a.pdf", "b.pdf"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "kit"]


# ----- round three: records, names, lists, ranges -------------------------------------------------

def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path, value


@pytest.mark.parametrize("name", ["classic", "six-buttons", "doodle", "anniversary"])
@pytest.mark.slow
def test_every_field_of_a_records_embedded_spec_is_protected(name):
    import copy

    from toolkit import records
    from toolkit.errors import RecordError
    from toolkit.specs import load_edition

    ref = records.edition_ref(load_edition(name))
    record = {"edition": ref}
    assert records.record_edition(record).content_hash == ref["content_hash"]
    seen = set()
    for path, value in _leaves(ref["spec"]):
        pattern = tuple("#" if isinstance(step, int) else step for step in path)
        if pattern in seen:  # every field, those the rules model does not carry included
            continue
        seen.add(pattern)
        changed = copy.deepcopy(ref)
        target = changed["spec"]
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = (value + "x" if isinstance(value, str) else not value if isinstance(value, bool)
                            else value + 1 if isinstance(value, (int, float)) else "x")
        with pytest.raises(RecordError):  # refused as edited (or as a spec that no longer loads)
            records.record_edition({"edition": changed})
    # the name the record shows is the spec's own
    renamed = {**copy.deepcopy(ref), "name": "classic" if name != "classic" else "express"}
    with pytest.raises(RecordError, match="names its edition .* but its embedded spec has"):
        records.record_edition({"edition": renamed})


def test_output_names_agree_with_their_format():
    from toolkit.errors import UsageError

    for name, fmt in (("x.pdf", "pdf"), ("x.PNG", "png"), ("dir/x.svg", "svg"), ("r.yml", "yaml")):
        fileio.check_suffix(name, fmt)
    for name, fmt in (("x.pdf", "png"), ("x", "pdf"), ("x.png.txt", "png"), (".png", "svg")):
        with pytest.raises(UsageError, match="file is named"):
            fileio.check_suffix(name, fmt)


def test_long_lists_are_shortened():
    from toolkit.errors import shortened

    assert shortened(["a", "b"]) == "a, b"
    text = shortened(f"F{i:03d}" for i in range(208))
    assert text.endswith("F011 ... and 196 more") and len(text) < 120


def test_ranges_are_judged_from_their_numbers_and_ids_are_distinct():
    from toolkit.cli.options import check_fraction, distinct_ids, range_count
    from toolkit.errors import UsageError

    started = time.thread_time()
    for text in ("0..1000000000", "-1000000000..1000000000:1", ",".join(["1"] * 300),
                 "0.." + "9" * 30, "0..999999999999999999999"):
        with pytest.raises(UsageError):
            range_count(text, "--values")
    assert time.thread_time() - started < 1  # nothing was built (this thread's CPU; a billion-item range costs minutes)
    for text in ("0..8", "0..995:5", "1,2,3", "[20,26],[26,32]"):
        range_count(text, "--values")
    assert distinct_ids(" P01, P05 ", "--patches") == ["P01", "P05"]
    for text, message in (("P01,P01", "P01 listed twice"), ("P01,,P02", "empty id"), (",", "no id")):
        with pytest.raises(UsageError, match=message):
            distinct_ids(text, "--patches")
    for value in (float("nan"), float("inf"), -1.0, 0.0, 1.0):
        with pytest.raises(UsageError, match="--sprt-alpha must be a finite number in"):
            check_fraction(value, "--sprt-alpha", 0, 1, open_high=True)
    check_fraction(0.05, "--sprt-alpha", 0, 1, open_high=True)
