"""The chat client's mechanics against a scripted stand-in server (what a real one cannot be made to do:
429s, 5xx, bodies that are not JSON). The same mechanics against the real endpoint: tests/model."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from graphmem.bench.model.cache import AnswerCache
from graphmem.bench.model.client import ModelClient, ModelReader, ModelSettings
from graphmem.errors import ModelUnavailable


def _ok(text: str) -> tuple[int, bytes]:
    body = {"choices": [{"message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 2}}
    return 200, json.dumps(body).encode()


class Fake:
    """A local HTTP server answering each POST with the next scripted (status, body), or echoing the prompt."""

    def __init__(self, script: list[tuple[int, bytes]] | None = None, delay: float = 0.0):
        self.script = list(script or [])
        self.delay = delay
        self.posts: list[dict] = []
        self.headers: list[dict] = []
        self.in_flight = self.most_in_flight = 0
        lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _send(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                self._send(200, json.dumps({"data": [{"id": "fake-model"}]}).encode())

            def do_POST(self):
                payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with lock:
                    fake.posts.append(payload)
                    fake.headers.append(dict(self.headers))
                    fake.in_flight += 1
                    fake.most_in_flight = max(fake.most_in_flight, fake.in_flight)
                    step = fake.script.pop(0) if fake.script else None
                time.sleep(fake.delay)
                status, body = step or _ok("'" + payload["messages"][0]["content"].upper() + "'.")
                with lock:
                    fake.in_flight -= 1
                self._send(status, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake():
    made: list[Fake] = []

    def make(*args, **kwargs) -> Fake:
        made.append(Fake(*args, **kwargs))
        return made[-1]

    yield make
    for f in made:
        f.close()


def settings(url: str, **kw) -> ModelSettings:
    return ModelSettings(url=url, **{"backoff": 0.01, "timeout": 5.0, **kw})


def test_a_call_is_temperature_zero_capped_and_keyed(fake):
    f = fake()
    client = ModelClient(settings(f.url, key="sekret-123", max_tokens=7))
    reply = client.chat("hello", "fake-model")
    assert reply.text == "'HELLO'." and reply.prompt_tokens == 10
    post = f.posts[0]
    assert post["temperature"] == 0 and post["max_tokens"] == 7 and post["model"] == "fake-model"
    assert post["messages"] == [{"role": "user", "content": "hello"}]
    assert f.headers[0]["Authorization"] == "Bearer sekret-123"
    assert "sekret" not in repr(client.settings)
    assert client.model_name() == "fake-model"


def test_429_and_5xx_are_retried(fake):
    f = fake([(429, b'{"error": "slow down"}'), (503, b"loading"), (500, b"oops")])
    reply = ModelClient(settings(f.url)).chat("x", "m")
    assert reply.text == "'X'." and len(f.posts) == 4


def test_retries_run_out_in_one_line_naming_the_url(fake):
    f = fake([(503, b"busy")] * 3)
    with pytest.raises(ModelUnavailable) as err:
        ModelClient(settings(f.url, retries=2)).chat("x", "m")
    assert str(err.value) == f"model endpoint {f.url}/chat/completions: HTTP 503: busy; tried 3 times"


@pytest.mark.parametrize("status, body, says", [
    (200, b"<html>hello</html>", "the reply is not JSON: <html>hello</html>"),
    (200, b'{"error": {"message": "context too long"}}', "error body: context too long"),
    (200, b'{"choices": []}', "the reply has no choice"),
    (200, b'{"choices": [{"message": {}}]}', "the first choice has no message text"),
    (404, b"Not Found", "HTTP 404: Not Found"),
])
def test_nonsense_is_one_line_naming_the_url(fake, status, body, says):
    f = fake([(status, body)])
    with pytest.raises(ModelUnavailable) as err:
        ModelClient(settings(f.url, key="sekret-123")).chat("x", "m")
    message = str(err.value)
    assert message.startswith(f"model endpoint {f.url}/chat/completions: ") and says in message
    assert "\n" not in message and "sekret" not in message
    assert len(f.posts) == 1  # nonsense is not retried


def test_refused_before_any_answer_fails_at_once():
    start = time.perf_counter()
    with pytest.raises(ModelUnavailable, match="connection refused"):
        ModelClient(settings("http://127.0.0.1:9", backoff=5.0)).chat("x", "m")
    assert time.perf_counter() - start < 4  # no backoff spent on a wrong URL


def test_reader_keeps_order_dedupes_bounds_the_queue_and_reads_disk_second_time(fake, tmp_path):
    f = fake(delay=0.05)
    reader = ModelReader(settings(f.url, parallel=3), AnswerCache(tmp_path))
    prompts = [f"q{i}" for i in range(12)] + ["q0", "q5"]
    replies, tally = reader.replies(prompts)
    assert replies == [p.upper() for p in prompts]  # tidied, in order
    assert (tally.asked, tally.from_disk, tally.bought, tally.failed) == (12, 0, 12, 0)
    assert 1 < f.most_in_flight <= 3
    assert tally.prompt_tokens == 120
    again, second = ModelReader(settings(f.url, parallel=3), AnswerCache(tmp_path)).replies(prompts)
    assert again == replies
    assert (second.asked, second.from_disk, second.bought) == (12, 12, 0)
    assert len(f.posts) == 12  # the second run asked nothing


def test_failures_after_an_answer_are_counted_and_the_run_gives_up(fake, tmp_path):
    f = fake([_ok("a")] + [(503, b"down")] * 50)
    reader = ModelReader(settings(f.url, retries=1, give_up=3), AnswerCache(tmp_path))
    replies, tally = reader.replies([f"q{i}" for i in range(10)])
    assert replies[0] == "a" and replies[1:] == [None] * 9
    assert (tally.bought, tally.failed) == (1, 9)
    # three prompts in a row failed twice each (one more was already queued), the rest never sent
    assert 1 + 3 * 2 <= len(f.posts) <= 1 + 4 * 2
    assert "failed (counted as declines; last error: model endpoint" in tally.line()


def test_a_failure_before_any_answer_stops_the_run(fake, tmp_path):
    f = fake([(200, b"not json")])
    with pytest.raises(ModelUnavailable, match="not JSON"):
        ModelReader(settings(f.url), AnswerCache(tmp_path)).replies(["a", "b"])
