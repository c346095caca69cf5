"""An OpenAI-compatible chat client (standard library only), and the reader that asks it many prompts.

Why the standard library: the model reader is optional, and any endpoint a user has (Ollama,
vLLM, llama.cpp, LM Studio, OpenAI) speaks the same two routes, ``POST .../chat/completions`` and
``GET .../models``; ``urllib`` covers both without another dependency.

What a call does (:class:`ModelClient`): temperature 0 and a capped reply, so a reply is as
repeatable as the server makes it and cannot run on; a retry with exponential backoff on 429,
5xx, timeouts and dropped connections (honouring ``Retry-After``; a refused connection is
retried only once the endpoint has answered, since before that it means a wrong URL or a server
not started, and a user should hear so at once); and every other failure (not
JSON, an error body, no choice, a 4xx) is a :class:`~graphmem.errors.ModelUnavailable` whose one
line names the URL. The key (``GRAPHMEM_MODEL_KEY``) is sent as a bearer token and never appears
in a message or a repr.

What a run does (:class:`ModelReader`): every distinct prompt is looked up on disk
(:mod:`graphmem.bench.model.cache`), the rest are sent ``parallel`` at a time through a bounded
queue (at most twice that many submitted), and each bought reply is kept as soon as it arrives,
so an interrupted run resumes. An endpoint that fails before answering anything in this run is a
configuration error and stops the run in one line; one that stops answering part-way costs the
questions it could not answer, counted as failed (a failed question is a decline), and after
``give_up`` failures in a row the rest are not sent at all.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from graphmem.bench.model.reader import tidy
from graphmem.bench.model.cache import AnswerCache, Cached
from graphmem.errors import ModelUnavailable

__all__ = ["ModelSettings", "Reply", "ModelClient", "Tally", "ModelReader", "chat_url"]


@dataclass(frozen=True)
class ModelSettings:
    """Where the model is and how it is asked. ``key`` is never shown (``repr=False``)."""

    url: str
    name: str | None = None
    key: str | None = field(default=None, repr=False)
    max_tokens: int = 32
    timeout: float = 120.0
    retries: int = 4
    backoff: float = 1.0
    parallel: int = 1
    give_up: int = 8


@dataclass(frozen=True)
class Reply:
    """What the model wrote (raw, before tidying) and what it counted."""

    text: str
    prompt_tokens: int
    completion_tokens: int


class _Transient(Exception):
    """A failure worth retrying: 429, 5xx, a timeout, a refused or dropped connection."""

    def __init__(self, reason: str, wait_s: float | None = None, refused: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.wait_s = wait_s
        self.refused = refused


def chat_url(url: str) -> str:
    """The chat route of an endpoint given as its root, its ``/v1`` or the route itself."""
    u = url.strip().rstrip("/")
    if not u.startswith(("http://", "https://")):
        raise ModelUnavailable(f"model endpoint {url!r}: not an http(s) URL (e.g. http://127.0.0.1:8088/v1)")
    if u.endswith("/chat/completions"):
        return u
    return u + "/chat/completions" if u.endswith("/v1") else u + "/v1/chat/completions"


class ModelClient:
    """One OpenAI-compatible endpoint: :meth:`chat` one prompt, :meth:`served` its model names."""

    def __init__(self, settings: ModelSettings):
        self.settings = settings
        self.chat_url = chat_url(settings.url)
        self.models_url = self.chat_url[: -len("/chat/completions")] + "/models"
        self.answered = False  # set by the first good reply: a refusal before it is no blip, it is the wrong URL

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.settings.key:
            headers["Authorization"] = f"Bearer {self.settings.key}"
        return headers

    def _once(self, url: str, payload: dict[str, Any] | None) -> Any:
        """One HTTP exchange, its body parsed as JSON; transient failures raise :class:`_Transient`."""
        data = None if payload is None else json.dumps(payload).encode("utf-8")
        request = urllib.request.Request(url, data=data, headers=self._headers(), method="GET" if data is None else "POST")
        try:
            with urllib.request.urlopen(request, timeout=self.settings.timeout) as response:
                body = response.read()
        except urllib.error.HTTPError as exc:
            snippet = _snippet(exc.read() if exc.fp else b"")
            if exc.code == 429 or exc.code >= 500:
                raise _Transient(f"HTTP {exc.code}{snippet}", _retry_after(exc.headers.get("Retry-After"))) from None
            raise ModelUnavailable(f"model endpoint {url}: HTTP {exc.code}{snippet}") from None
        except urllib.error.URLError as exc:
            raise _Transient(_reason(exc.reason), refused=isinstance(exc.reason, ConnectionRefusedError)) from None
        except (TimeoutError, socket.timeout):
            raise _Transient(f"no reply within {self.settings.timeout:g} s") from None
        except (ConnectionError, http.client.HTTPException) as exc:
            raise _Transient(_reason(exc), refused=isinstance(exc, ConnectionRefusedError)) from None
        try:
            parsed = json.loads(body)
            self.answered = True
            return parsed
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ModelUnavailable(f"model endpoint {url}: the reply is not JSON{_snippet(body)}") from None

    def _with_retries(self, url: str, payload: dict[str, Any] | None) -> Any:
        """:meth:`_once`, retried with exponential backoff while the failure is transient."""
        attempts = self.settings.retries + 1
        for attempt in range(attempts):
            try:
                return self._once(url, payload)
            except _Transient as exc:
                if exc.refused and not self.answered:
                    raise ModelUnavailable(f"model endpoint {url}: {exc.reason}") from None
                if attempt == attempts - 1:
                    raise ModelUnavailable(f"model endpoint {url}: {exc.reason}; tried {attempts} times") from None
                delay = self.settings.backoff * 2 ** attempt
                time.sleep(min(30.0, exc.wait_s if exc.wait_s is not None else delay))
        raise AssertionError("unreachable")  # pragma: no cover

    def chat(self, prompt: str, model: str) -> Reply:
        """Ask one prompt (one user message) at temperature 0 with a capped reply."""
        payload = {"model": model, "messages": [{"role": "user", "content": prompt}], "temperature": 0,
                   "max_tokens": self.settings.max_tokens, "stream": False}
        body = self._with_retries(self.chat_url, payload)
        return _reply(body, self.chat_url)

    def served(self) -> list[str]:
        """The names the endpoint serves (``GET .../models``)."""
        body = self._with_retries(self.models_url, None)
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list) or not all(isinstance(m, dict) and isinstance(m.get("id"), str) for m in data):
            raise ModelUnavailable(f"model endpoint {self.models_url}: not a model list{_snippet(json.dumps(body).encode())}")
        return [m["id"] for m in data]

    def model_name(self) -> str:
        """``settings.name``, else the one model the endpoint serves."""
        if self.settings.name:
            return self.settings.name
        names = self.served()
        if len(names) != 1:
            listed = ", ".join(names[:5]) or "none"
            raise ModelUnavailable(f"model endpoint {self.models_url}: serves {len(names)} models ({listed}); "
                                   f"choose one with --model-name")
        return names[0]


def _reply(body: Any, url: str) -> Reply:
    """The first choice's text and the usage counts, or a one-line error for a nonsense body."""
    if isinstance(body, dict) and body.get("error"):
        err = body["error"]
        message = err.get("message", err) if isinstance(err, dict) else err
        raise ModelUnavailable(f"model endpoint {url}: error body: {str(message)[:200]}")
    choices = body.get("choices") if isinstance(body, dict) else None
    if not isinstance(choices, list) or not choices:
        raise ModelUnavailable(f"model endpoint {url}: the reply has no choice{_snippet(json.dumps(body).encode())}")
    message = choices[0].get("message") if isinstance(choices[0], dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str):
        raise ModelUnavailable(f"model endpoint {url}: the first choice has no message text")
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    return Reply(content, _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens")))


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _snippet(body: bytes) -> str:
    text = " ".join(body.decode("utf-8", "replace").split())
    return f": {text[:160]}{'...' if len(text) > 160 else ''}" if text else ""


def _reason(reason: Any) -> str:
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused: is the endpoint running?"
    if isinstance(reason, (TimeoutError, socket.timeout)):
        return "timed out"
    if isinstance(reason, socket.gaierror):
        return f"cannot resolve the host ({reason.strerror})"
    return str(getattr(reason, "strerror", None) or reason or type(reason).__name__)


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


@dataclass
class Tally:
    """What one run of prompts cost: asked (distinct prompts), from disk, bought, failed."""

    asked: int = 0
    from_disk: int = 0
    bought: int = 0
    failed: int = 0
    seconds: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    last_error: str = ""

    def add(self, other: Tally) -> None:
        for name in ("asked", "from_disk", "bought", "failed", "seconds", "prompt_tokens", "completion_tokens"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.last_error = other.last_error or self.last_error

    def line(self) -> str:
        """The one line a run prints: counts, and why calls failed when some did."""
        out = f"{self.asked} asked, {self.from_disk} from disk, {self.bought} bought, {self.failed} failed"
        if self.failed:
            out += f" (counted as declines; last error: {self.last_error})"
        return out

    def cost(self) -> str:
        """Questions per second through the model (bought replies over the wall time spent
        buying them) and tokens per question (over every reply, from disk or bought)."""
        answered = self.from_disk + self.bought
        rate = f"{self.bought / self.seconds:.2f} questions/s" if self.bought and self.seconds > 0 else "no question bought"
        tokens = (f"{self.prompt_tokens / answered:.0f} prompt tokens, {self.completion_tokens / answered:.1f} reply tokens"
                  f" per question" if answered else "no tokens")
        return f"{rate} ({self.bought} in {self.seconds:.1f} s wall); {tokens}"


class ModelReader:
    """Tidied replies to many prompts: from disk where kept, else bought ``parallel`` at a time."""

    def __init__(self, settings: ModelSettings, cache: AnswerCache, client: ModelClient | None = None,
                 progress: Callable[[int, int], None] | None = None):
        self.settings = settings
        self.cache = cache
        self.client = client or ModelClient(settings)
        self.progress = progress  # called with (done, to buy) after each bought or failed reply
        self._name: str | None = None

    @property
    def name(self) -> str:
        """The model's name (asked of the endpoint once, unless given)."""
        if self._name is None:
            self._name = self.client.model_name()
        return self._name

    def replies(self, prompts: Sequence[str], progress: Callable[[int, int], None] | None = None
                ) -> tuple[list[str | None], Tally]:
        """Per prompt its tidied reply (None where the call failed), and the run's tally."""
        distinct = list(dict.fromkeys(prompts))
        tally = Tally(asked=len(distinct))
        got: dict[str, str | None] = {}
        missing = []
        for prompt in distinct:
            kept = self.cache.get(self.name, self.settings.max_tokens, prompt)
            if kept is None:
                missing.append(prompt)
                continue
            got[prompt] = tidy(kept.reply)
            tally.from_disk += 1
            tally.prompt_tokens += kept.prompt_tokens
            tally.completion_tokens += kept.completion_tokens
        if missing:
            start = time.perf_counter()
            self._buy(missing, got, tally, progress or self.progress)
            tally.seconds = time.perf_counter() - start
        return [got.get(p) for p in prompts], tally

    def _buy(self, prompts: list[str], got: dict[str, str | None], tally: Tally,
             progress: Callable[[int, int], None] | None) -> None:
        """Send prompts through a bounded queue; keep each reply as it arrives."""
        name, workers = self.name, max(1, self.settings.parallel)
        queue = iter(prompts)
        in_flight: dict[Future[Reply], str] = {}
        in_a_row = 0
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="model") as pool:
            def fill() -> None:
                while len(in_flight) < 2 * workers and in_a_row < self.settings.give_up:
                    prompt = next(queue, None)
                    if prompt is None:
                        return
                    in_flight[pool.submit(self.client.chat, prompt, name)] = prompt
            fill()
            while in_flight:
                done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    prompt = in_flight.pop(future)
                    try:
                        reply = future.result()
                    except ModelUnavailable as exc:
                        if tally.bought == 0:  # never answered this run: the endpoint is wrong, not flaky
                            pool.shutdown(wait=False, cancel_futures=True)
                            raise
                        in_a_row += 1
                        tally.failed += 1
                        tally.last_error = str(exc)
                        got[prompt] = None
                        if progress is not None:
                            progress(tally.bought + tally.failed, len(prompts))
                        continue
                    in_a_row = 0
                    self.cache.put(Cached(name, self.settings.max_tokens, prompt, reply.text,
                                          reply.prompt_tokens, reply.completion_tokens))
                    got[prompt] = tidy(reply.text)
                    tally.bought += 1
                    tally.prompt_tokens += reply.prompt_tokens
                    tally.completion_tokens += reply.completion_tokens
                    if progress is not None:
                        progress(tally.bought + tally.failed, len(prompts))
                fill()
        for prompt in queue:  # not sent: the endpoint failed give_up times in a row
            tally.failed += 1
            got[prompt] = None
