"""Model replies kept on disk, one small JSON file per (model, reply cap, exact prompt).

Why on disk: a slow model is measured once. An interrupted run resumes where it stopped and a
repeated run asks nothing, so its output bytes are those of the first run. The key is a SHA-256
of the model's name, the reply cap and the exact prompt: change any of the three and the reply
is bought again, never reused for a question it was not the answer to. The file keeps the model
and prompt it answered, and a read checks them, so a file copied under the wrong name is a miss.

The raw reply is kept (not the tidied one): a change to the tidy step re-reads old replies
instead of invalidating them. Writes go to a temporary file renamed into place, so a run killed
mid-write leaves no half file, and threads writing different answers never meet.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from graphmem.errors import DataError

__all__ = ["DEFAULT_DIR", "Cached", "AnswerCache", "cache_key"]

DEFAULT_DIR = Path("~/.cache/graphmem/model")
"""Where answers are kept unless ``--model-cache DIR`` says otherwise."""


@dataclass(frozen=True)
class Cached:
    """One bought reply as kept on disk: what was asked of which model, and what it cost."""

    model: str
    max_tokens: int
    prompt: str
    reply: str
    prompt_tokens: int
    completion_tokens: int


def cache_key(model: str, max_tokens: int, prompt: str) -> str:
    """The SHA-256 (hex) of the model name, the reply cap and the exact prompt."""
    material = json.dumps([model, max_tokens, prompt], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class AnswerCache:
    """Replies under ``root/<2 hex>/<key>.json``; :meth:`get` a miss as None, :meth:`put` atomic."""

    def __init__(self, root: str | Path = DEFAULT_DIR):
        self.root = Path(root).expanduser()

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, model: str, max_tokens: int, prompt: str) -> Cached | None:
        """The kept reply to exactly this request, or None. A file that is not a kept reply
        is a :class:`DataError` naming it (it was not written by this module)."""
        path = self.path(cache_key(model, max_tokens, prompt))
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise DataError(f"{path}: cannot read a kept model reply: {exc.strerror}") from None
        try:
            record = Cached(**json.loads(text))
        except (json.JSONDecodeError, TypeError) as exc:
            raise DataError(f"{path}: not a kept model reply ({exc}); delete it to ask again") from None
        if (record.model, record.max_tokens, record.prompt) != (model, max_tokens, prompt):
            return None
        return record

    def put(self, record: Cached) -> Path:
        """Keep a reply (atomically: a reader sees the whole file or none)."""
        path = self.path(cache_key(record.model, record.max_tokens, record.prompt))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(asdict(record), f, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError as exc:
            raise DataError(f"{path}: cannot keep a model reply: {exc.strerror}") from None
        return path
