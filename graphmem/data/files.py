"""Reading an input file, every failure one :class:`~graphmem.errors.DataError` that names it.

Every loader of the package reads its file through here, so a missing, unreadable or
non-UTF-8 file is reported the same way whatever the file is for, in one line that starts
with the file's path (``<file>: no such file``) and never as a traceback.
"""

from __future__ import annotations

from pathlib import Path

from graphmem.errors import DataError

__all__ = ["read_bytes", "read_text"]


def read_bytes(path: Path, what: str | None = None) -> bytes:
    """The bytes of ``path``.

    ``what`` names the kind of file ("predictions file") for a caller whose users pass
    it by hand; the message then says ``cannot read <what>: <reason>`` for any failure.
    Without it a missing file or a directory is said plainly (``no such file``,
    ``is a directory``).
    """
    try:
        return path.read_bytes()
    except OSError as exc:
        raise DataError(_unreadable(path, exc, what)) from None


def read_text(path: Path, what: str | None = None) -> str:
    """The text of ``path``, UTF-8, newlines as :meth:`pathlib.Path.read_text` gives them."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(_unreadable(path, exc, what)) from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _unreadable(path: Path, exc: OSError, what: str | None) -> str:
    reason = exc.strerror or str(exc)
    if what is not None:
        return f"{path}: cannot read {what}: {reason}"
    if isinstance(exc, FileNotFoundError):
        return f"{path}: no such file"
    if isinstance(exc, IsADirectoryError):
        return f"{path}: is a directory"
    return f"{path}: cannot read: {reason}"
