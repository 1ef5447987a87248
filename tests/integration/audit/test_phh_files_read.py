"""Reading PHH files through the descriptor calls (:func:`nomicpoker.shell.audit.phh_files.read_bytes`)
gives exactly the file's bytes, whatever its size against the read chunk, and fails as
``open`` does; ``load_hands`` reads CRLF and ``.phhs`` files as text mode would."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nomicpoker.shell.audit.phh_files import _CHUNK, load_hands, read_bytes


@pytest.mark.parametrize("size", [0, 1, _CHUNK - 1, _CHUNK, _CHUNK + 1, 2 * _CHUNK, 3 * _CHUNK + 7])
def test_every_byte_whatever_the_size(tmp_path: Path, size: int) -> None:
    data = os.urandom(size)
    f = tmp_path / "x.phh"
    f.write_bytes(data)
    assert read_bytes(f) == data
    assert read_bytes(str(f)) == data


def test_errors_are_the_ones_open_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_bytes(tmp_path / "missing.phh")
    with pytest.raises(IsADirectoryError):
        read_bytes(tmp_path)


def test_no_descriptor_is_left_open(tmp_path: Path) -> None:
    f = tmp_path / "x.phh"
    f.write_bytes(b"a" * (_CHUNK + 3))
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    for _ in range(50):
        read_bytes(f)
    with pytest.raises(IsADirectoryError):
        read_bytes(tmp_path)
    if before is None:
        pytest.skip("no /proc/self/fd to count descriptors")
    assert len(os.listdir("/proc/self/fd")) == before


HAND = ("variant = 'NT'\nante_trimming_status = true\nantes = [0, 0]\n"
        "blinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [200, 200]\n"
        "actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'p2 f']\nplayers = ['a', 'b']\n"
        "finishing_stacks = [201, 199]\n")


def test_a_large_phhs_file_and_crlf_read_as_text_mode(tmp_path: Path) -> None:
    n = 2 * _CHUNK // len(HAND) + 5  # spans several chunks
    f = tmp_path / "many.phhs"
    f.write_bytes("".join(f"[{k}]\n{HAND}\n" for k in range(1, n + 1)).replace("\n", "\r\n").encode())
    hands = load_hands(f)
    assert [h.key for h in hands] == [str(k) for k in range(1, n + 1)]
    assert all(h.players == ("a", "b") and h.finishing_stacks == (201, 199) for h in hands)
