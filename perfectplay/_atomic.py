"""Files that appear whole or not at all: write a temporary file beside the target, rename it.

:func:`atomic_file` opens a new temporary file in the target's directory (so that the final
``os.replace`` is a rename within one file system, which is atomic) and yields it for writing.
When the block ends normally the file is closed and renamed over the target; when it raises,
the temporary file is removed and the target is untouched. With ``durable=True`` the file's
data is flushed to disk before the rename and the directory entry after it, so a power loss
leaves either the old file or the whole new one.

The temporary file is created with ``os.open(..., O_CREAT | O_EXCL, 0o666)``: the kernel
applies the process's umask as it does to any new file, so the target's permissions follow
the user's umask without the umask ever being read or changed (``os.umask`` sets the mask of
the whole process, which races with threads creating files at the same moment, such as the
web app's background solves). :func:`current_umask` reads it without changing it, for
callers that need the number.

Examples
--------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
>>> with atomic_file(path) as out:
...     _ = out.write(b"whole")
>>> open(path, "rb").read()
b'whole'
>>> with atomic_file(path) as out:
...     _ = out.write(b"half")
...     raise RuntimeError("interrupted")
Traceback (most recent call last):
...
RuntimeError: interrupted
>>> open(path, "rb").read(), sorted(os.listdir(os.path.dirname(path)))
(b'whole', ['out.txt'])
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Iterable, Iterator
from typing import BinaryIO

__all__ = ["atomic_file", "atomic_write_bytes", "current_umask", "fsync_directory"]

_ATTEMPTS = 100
"""Names tried before giving up on a free temporary name (``tempfile`` tries as many)."""


def current_umask() -> int:
    """The process's umask, read without changing it (``os.umask`` is a set-and-return).

    On Linux it is the ``Umask:`` line of ``/proc/self/status``; elsewhere a probe file is
    created with mode 0o777 in a new temporary directory and the bits the kernel cleared are
    the mask.

    >>> 0 <= current_umask() <= 0o777
    True
    """
    with (
        contextlib.suppress(OSError, ValueError),
        open("/proc/self/status", encoding="ascii") as status,
    ):
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        probe = os.path.join(directory, "probe")
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o777))
        return 0o777 & ~os.stat(probe).st_mode


def fsync_directory(directory: str) -> None:
    """Flush `directory`'s entries to disk (a rename inside it survives a power loss)."""
    fd = os.open(directory or ".", os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _create(directory: str, prefix: str, suffix: str) -> tuple[int, str]:
    """A new file ``prefix + random + suffix`` in `directory`, mode 0o666 less the umask."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(_ATTEMPTS):
        name = os.path.join(directory, f"{prefix}{secrets.token_hex(4)}{suffix}")
        try:
            return os.open(name, flags, 0o666), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", directory)


@contextlib.contextmanager
def atomic_file(
    path: str | os.PathLike[str],
    *,
    prefix: str | None = None,
    suffix: str = ".tmp",
    durable: bool = True,
    mode: int | None = None,
) -> Iterator[BinaryIO]:
    """A binary file to write that replaces `path` when the block ends without an exception.

    Parameters
    ----------
    path : str or PathLike
        The file to write; its directory must exist.
    prefix, suffix : str
        The temporary file's name is ``prefix + 8 random hex digits + suffix`` in `path`'s
        directory; `prefix` defaults to ``"." + basename + "."`` (a hidden file).
    durable : bool
        Flush the file to disk before the rename and the directory after it.
    mode : int, optional
        The file's exact permission bits; by default 0o666 less the umask, as for any new file.

    Raises
    ------
    OSError
        If the temporary file cannot be created (the error names `path`, not the temporary
        file) or written, or the rename fails. Nothing is left behind: neither the temporary
        file nor a partial `path`.
    """
    target = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(target))
    if prefix is None:
        prefix = f".{os.path.basename(target)}."
    try:
        fd, temporary = _create(directory, prefix, suffix)
    except OSError as error:  # name the file asked for, not the temporary one
        raise OSError(error.errno, error.strerror, target) from None
    try:
        with os.fdopen(fd, "wb") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            yield out
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    if durable:
        fsync_directory(directory)


def atomic_write_bytes(
    path: str | os.PathLike[str],
    parts: Iterable[bytes | memoryview],
    *,
    prefix: str | None = None,
    suffix: str = ".tmp",
    durable: bool = True,
    mode: int | None = None,
) -> None:
    """Write `parts` one after the other to `path` through :func:`atomic_file` (same options).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "t.bin")
    >>> atomic_write_bytes(path, [b"ab", memoryview(b"cd")])
    >>> open(path, "rb").read()
    b'abcd'
    """
    with atomic_file(path, prefix=prefix, suffix=suffix, durable=durable, mode=mode) as out:
        for part in parts:
            out.write(part)
