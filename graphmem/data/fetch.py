"""Where LoCoMo's file comes from when none is given: the cache, and the download into it.

The cache is ``$GRAPHMEM_CACHE``, else ``$XDG_CACHE_HOME/graphmem``, else
``~/.cache/graphmem``, holding ``locomo10.json``. A download is kept only if its SHA-256
is :data:`LOCOMO_SHA256`, so what the cache holds is the published file or nothing: every
figure the bench prints is computed on the same bytes. :func:`graphmem.data.locomo.load_dataset`
decides when to download (no path given, no ``$GRAPHMEM_LOCOMO``, no shared copy, no cached copy
with the right hash).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from graphmem.errors import DataError

__all__ = ["ENV_CACHE", "LOCOMO_FILENAME", "LOCOMO_SHA256", "LOCOMO_URL", "cache_dir", "cache_path", "download"]

LOCOMO_URL = "https://raw.githubusercontent.com/snap-research/LoCoMo/main/data/locomo10.json"
"""Where :func:`graphmem.data.locomo.load_dataset` downloads LoCoMo from when no file is given and none is cached."""

LOCOMO_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
"""SHA-256 of the published ``locomo10.json``; a download with any other hash is refused."""

LOCOMO_FILENAME = "locomo10.json"

ENV_CACHE = "GRAPHMEM_CACHE"


def cache_dir() -> Path:
    """``$GRAPHMEM_CACHE``, else ``$XDG_CACHE_HOME/graphmem``, else ``~/.cache/graphmem``."""
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE]).expanduser()
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]).expanduser() / "graphmem"
    return Path.home() / ".cache" / "graphmem"


def cache_path() -> Path:
    """The cached copy of ``locomo10.json`` that :func:`graphmem.data.locomo.load_dataset` uses and downloads into."""
    return cache_dir() / LOCOMO_FILENAME


def download(url: str, dest: str | Path, sha256: str, timeout: float = 30.0) -> Path:
    """Fetch ``url`` into ``dest``, keeping it only if its SHA-256 is ``sha256``.

    The bytes go to a temporary file in ``dest``'s directory, which is moved into place
    with :func:`os.replace` only when the hash matches, so ``dest`` is either the old file
    (if any) or the complete, verified new one. On a network error or a hash mismatch the
    temporary file (and the directory, if this call created it) is deleted and
    :class:`DataError` names the URL (and both hashes).
    """
    dest = Path(dest)
    created = not dest.parent.exists()
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part")
    except OSError as exc:
        raise DataError(f"{dest.parent}: cannot write the download of {url}: {exc.strerror or exc}") from None
    tmp = Path(tmp_name)
    digest = hashlib.sha256()
    try:
        try:
            with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=timeout) as resp:
                expected = resp.headers.get("Content-Length")
                size = 0
                while chunk := resp.read(1 << 16):
                    digest.update(chunk)
                    out.write(chunk)
                    size += len(chunk)
                if expected and expected.isdigit() and size < int(expected):
                    raise DataError(f"{url}: download failed: connection closed after {size} of {expected} bytes")
        except DataError:
            raise
        except urllib.error.HTTPError as exc:
            raise DataError(f"{url}: download failed: HTTP {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            raise DataError(f"{url}: download failed: {exc.reason}") from None
        except (OSError, ValueError) as exc:  # timeouts, resets, bad URLs
            raise DataError(f"{url}: download failed: {exc}") from None
        except Exception as exc:  # http.client.HTTPException (IncompleteRead, ...) and kin
            raise DataError(f"{url}: download failed: {type(exc).__name__}: {exc}") from None
        got = digest.hexdigest()
        if got != sha256.lower():
            raise DataError(f"{url}: SHA-256 mismatch, expected {sha256.lower()}, got {got}; download refused")
        try:
            os.replace(tmp, dest)
        except OSError as exc:
            raise DataError(f"{dest}: cannot save the download of {url}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        if created:  # leave no empty cache directory behind either
            try:
                dest.parent.rmdir()
            except OSError:
                pass
        raise
    return dest
