"""Writing output files: whole or not at all."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["write_text_atomic", "WriteError"]


class WriteError(OSError):
    """An output file could not be written; the message names that file (never the hidden
    temporary one) and the system's reason, such as a full disk."""

    def __str__(self) -> str:
        return str(self.strerror)


def write_text_atomic(path: str | Path, text: str | bytes) -> Path:
    """Write ``text`` (or bytes) to ``path`` through a temporary file in the same folder and
    :func:`os.replace`, so a full disk or an interrupt never leaves a truncated file; the
    file gets the umask's permissions, like any file the user creates.

    Raises
    ------
    ValueError
        ``path`` is a folder, or its folder does not exist (naming it).
    WriteError
        The system refused the write (full disk, no permission): ``path`` is as it was, the
        temporary file is gone.
    """
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{path}: is a directory")
    if not path.parent.is_dir():
        raise ValueError(f"{path}: folder {path.parent} does not exist")
    # exclusive create of a fresh name (not mkstemp, whose files are 0600)
    tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    try:
        binary = isinstance(text, bytes)
        with open(tmp, "xb" if binary else "x", encoding=None if binary else "utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise WriteError(exc.errno, f"{path}: cannot write: {reason}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path
