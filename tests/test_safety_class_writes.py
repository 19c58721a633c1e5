"""Issue 28, items 5 and 6: a class is written whole or not at all, under names every file system holds.

5. A roster id of 61 x U+20000 makes a sheet name of 248 bytes, under NAME_MAX, but the temporary file's name kept
   64 *characters* of it (257 bytes): the run stopped with "File name too long" after two students, without a
   manifest, and the rerun refused a1.txt. The temporary name now keeps 64 bytes, and the class's files are all
   written to temporary files before any is renamed into place, the manifest last; a failure removes what the run
   added, so a rerun works.
6. Windows (OneDrive, SharePoint) refuses a file named after a device (CON, PRN, AUX, NUL, COM0-9, LPT0-9, COM and
   LPT with a superscript 1, 2 or 3), in any case, with any extension: such an id gets a '_' after it.
"""

import errno
import json
import os
from pathlib import Path

import pytest

import irlab.homework.identity
import irlab.outputs
from irlab.errors import OutputFileError
from irlab.homework.identity import safe_name
from irlab.outputs import NAME_MAX, TEMPORARY_STEM, temporary_prefix, write_file, write_files

SET = str(Path(__file__).resolve().parent.parent / "exercises" / "homework-variants.toml")
WIDE = "\U00020000" * 61  # 4 bytes each in UTF-8: the sheet's name has 248 bytes, its key's 252


def roster(tmp_path, *ids, name="roster.csv"):
    path = tmp_path / name
    path.write_text("id\n" + "".join(f"{i}\n" for i in ids), encoding="utf-8")
    return str(path)


def listing(directory: Path) -> list[str]:
    return sorted(os.listdir(directory)) if directory.exists() else []


def manifest_files(directory: Path) -> set[str]:
    data = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    return {s[kind] for s in data["students"] for kind in ("sheet", "key")}


# ---------------------------------------------------------------------------------------------------------------
# 5. the temporary name, and all or nothing


def test_the_wide_roster_id_writes_the_whole_class_and_a_rerun_replaces_it(tmp_path, cli):
    out = tmp_path / "class"
    ids = roster(tmp_path, "a1", "a2", WIDE, "b1")
    first = cli("sheet", SET, "--roster", ids, "--out", str(out))
    assert first.returncode == 0, first.stderr
    names = [f"{i}{end}" for i in ("a1", "a2", WIDE, "b1") for end in (".txt", "-key.txt")]
    assert len(f"{WIDE}.txt".encode()) == 248 and len(f"{WIDE}-key.txt".encode()) == 252
    assert listing(out) == sorted(names + ["manifest.json"])  # no temporary file left beside them
    assert manifest_files(out) == set(names)
    again = cli("sheet", SET, "--roster", ids, "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert listing(out) == sorted(names + ["manifest.json"])


def test_a_temporary_name_never_exceeds_name_max_whatever_the_final_name():
    for name in ("s001.txt", f"{WIDE}.txt", "\U00020000" * 63 + ".tx", "é" * 127 + "x", "a" * 255):
        assert len(name.encode()) <= NAME_MAX
        prefix = temporary_prefix(name)
        kept = prefix[1:-1]
        assert name.startswith(kept) and len(kept.encode()) <= TEMPORARY_STEM
        assert len(prefix.encode()) + 8 <= TEMPORARY_STEM + 10 < NAME_MAX  # mkstemp adds 8 characters
    assert temporary_prefix("s001.txt") == ".s001.txt."
    assert temporary_prefix(f"{WIDE}.txt") == "." + "\U00020000" * 16 + "."  # 64 bytes, not 64 characters


def test_a_name_of_255_bytes_is_written_and_one_of_256_refused_before_writing(tmp_path):
    longest = tmp_path / ("\U00020000" * 63 + "abc")  # 255 bytes
    write_file(longest, b"x")
    assert longest.read_bytes() == b"x" and listing(tmp_path) == [longest.name]
    with pytest.raises(OutputFileError, match="its name has 256 bytes .*file systems allow 255"):
        write_files([(tmp_path / "first.txt", b"1"), (tmp_path / ("\U00020000" * 64), b"2")])
    assert listing(tmp_path) == [longest.name]  # the first file was not written either


def refuse_names_over(limit, monkeypatch):
    """A file system whose names have at most ``limit`` bytes (eCryptfs: 143): the rename into place fails."""
    real = os.replace

    def replace(source, target):
        if len(os.fsencode(Path(target).name)) > limit:
            raise OSError(errno.ENAMETOOLONG, "File name too long")
        return real(source, target)

    monkeypatch.setattr(irlab.outputs.os, "replace", replace)


def test_a_name_the_file_system_refuses_leaves_no_file_and_no_directory(tmp_path, cli, monkeypatch):
    out = tmp_path / "class"
    ids = roster(tmp_path, "a1", "a2", "\U00020000" * 40, "b1")  # 164 bytes: under NAME_MAX, over eCryptfs' 143
    refuse_names_over(143, monkeypatch)
    failed = cli("sheet", SET, "--roster", ids, "--out", str(out))
    assert failed.returncode == 2 and "File name too long" in failed.stderr
    assert not out.exists() and listing(tmp_path) == ["roster.csv"]  # a1's and a2's files were removed again
    monkeypatch.undo()
    rerun = cli("sheet", SET, "--roster", ids, "--out", str(out))
    assert rerun.returncode == 0, rerun.stderr
    assert len(listing(out)) == 9


def test_a_failure_in_a_class_directory_keeps_the_earlier_manifest_and_the_rerun_works(tmp_path, cli, monkeypatch):
    out = tmp_path / "class"
    assert cli("sheet", SET, "--roster", roster(tmp_path, "a1", "b1"), "--out", str(out)).returncode == 0
    earlier = (out / "manifest.json").read_bytes()
    ids = roster(tmp_path, "a1", "a2", "\U00020000" * 40, "b1", name="bigger.csv")
    refuse_names_over(143, monkeypatch)
    assert cli("sheet", SET, "--roster", ids, "--out", str(out)).returncode == 2
    assert (out / "manifest.json").read_bytes() == earlier  # it lists a1 and b1, which the run may have replaced
    assert listing(out) == ["a1-key.txt", "a1.txt", "b1-key.txt", "b1.txt", "manifest.json"]  # a2's were removed
    monkeypatch.undo()
    assert cli("sheet", SET, "--roster", ids, "--out", str(out)).returncode == 0
    assert len(listing(out)) == 9 and len(manifest_files(out)) == 8


def test_a_manifest_that_cannot_be_written_takes_the_class_files_with_it(tmp_path, cli, monkeypatch):
    out = tmp_path / "class"

    def full_disk(path, text):
        raise OutputFileError(path, "No space left on device")

    monkeypatch.setattr(irlab.homework.identity, "write_text", full_disk)
    failed = cli("sheet", SET, "--roster", roster(tmp_path, "a1", "b1"), "--out", str(out))
    assert failed.returncode == 2 and "manifest.json: cannot write: No space left on device" in failed.stderr
    assert not out.exists()


def test_ctrl_c_while_the_files_are_written_leaves_no_temporary_file(tmp_path, monkeypatch):
    real, calls = irlab.outputs.tempfile.mkstemp, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(irlab.outputs.tempfile, "mkstemp", interrupted)
    (tmp_path / "b.txt").write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt):
        write_files([(tmp_path / "a.txt", b"1"), (tmp_path / "b.txt", b"2"), (tmp_path / "c.txt", b"3")])
    assert listing(tmp_path) == ["b.txt"] and (tmp_path / "b.txt").read_bytes() == b"old"


# ---------------------------------------------------------------------------------------------------------------
# 6. Windows device names

DEVICES = {"CON", "PRN", "AUX", "NUL"} | {f"{port}{n}" for port in ("COM", "LPT") for n in "0123456789\u00b9\u00b2\u00b3"}


def windows_refuses(name: str) -> bool:
    """Microsoft's rule, written independently of irlab: the part before the first dot, trailing dots and spaces
    ignored, is a device name in any case."""
    return name.split(".")[0].rstrip(" .").upper() in DEVICES


HOSTILE = ["CON", "nul", "Aux", "COM1", "lpt9", "PRN", "COM\u00b9", "lpt\u00b3", "com0", "CON.", "con.tar.gz", "NuL.x.y"]


@pytest.mark.parametrize("student", HOSTILE)
def test_a_device_id_gets_a_name_windows_holds_and_always_the_same(student):
    name = safe_name(student)
    assert windows_refuses(f"{student.strip('.')}.txt") and not windows_refuses(f"{name}.txt")
    assert not windows_refuses(f"{name}-key.txt") and name == safe_name(student)
    assert name.casefold().startswith(student.strip(".").split(".")[0].casefold() + "_")


def test_names_that_only_look_like_devices_are_kept():
    for student in ("CONSOLE", "COM10", "LPT", "xNUL", "con-1", "COM\u2074", "s001"):
        assert safe_name(student) == student


def test_the_class_of_device_ids_gets_distinct_files_windows_holds(tmp_path, cli):
    out = tmp_path / "class"
    ids = ["CON", "nul", "Aux", "COM1", "lpt9", "PRN"]
    done = cli("sheet", SET, "--roster", roster(tmp_path, *ids), "--out", str(out))
    assert done.returncode == 0, done.stderr
    names = listing(out)
    assert names == sorted([f"{i}_{end}" for i in ids for end in (".txt", "-key.txt")] + ["manifest.json"])
    assert not any(windows_refuses(n) for n in names)
    assert len({n.casefold() for n in names}) == len(names)  # distinct on a case-insensitive file system too


def test_a_device_id_and_the_id_it_becomes_are_one_file_and_refused_naming_both(tmp_path, cli):
    out = tmp_path / "class"
    done = cli("sheet", SET, "--roster", roster(tmp_path, "CON", "con_"), "--out", str(out))
    assert done.returncode == 2
    assert "roster ids 'CON' (line 2) and 'con_' (line 3) both make the file con_.txt" in done.stderr
    assert "a Windows device name such as CON gets a '_'" in done.stderr
    assert not out.exists()
