"""A scripted OpenAI chat-completions server on loopback, for testing the real client over HTTP.

Queue replies per test (`reply`, `reply_json`, `fail`, `raw`, `stream`), each optionally delayed; the server
answers requests in order and records every request body. A client that hangs up during a delay is
counted in `dropped` (as a real server would see its connection closed). With nothing queued it
answers HTTP 500 and counts the request in `unexpected`, so a test sees calls it did not plan for.
`serve_get(path, value)` answers GET `path` (e.g. llama.cpp's `/props`) with JSON; other GETs get 404.
`stream` answers a `stream=True` request with server-sent events, one per piece; `cut=True` closes the
connection after the pieces, without the last event (finish_reason) and `[DONE]`.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from rrag.backends.llm import OpenAIChatLLM
from rrag.settings import Settings

MODEL = "scripted-model"


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    events: tuple[bytes, ...] = ()  # a streamed reply's server-sent events, sent after `body`
    piece_delay_s: float = 0.0  # before each event


class ChatServer:
    def __init__(self, *, keep_alive: bool = False) -> None:
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []  # each request's path and query
        self.unexpected = 0
        self.gets: dict[str, Any] = {}  # path -> the JSON a GET of it answers
        self.got: list[str] = []  # each GET's path
        self.dropped = 0  # requests whose client closed the connection before the reply
        # keep_alive: HTTP/1.1, connections kept open between requests, as real LLM servers do.
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self, keep_alive))
        self._httpd.daemon_threads = True
        # A short poll interval: shutdown() waits up to one interval, at every test's teardown.
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def llm(self, settings: Settings, **overrides: Any) -> OpenAIChatLLM:
        """A real client pointed at this server; no transport retries unless asked for."""
        values: dict[str, Any] = {"llm_base_url": self.base_url, "llm_model": MODEL, "llm_max_retries": 0}
        return OpenAIChatLLM(settings.replace(**(values | overrides)))

    # -- scripting ------------------------------------------------------------------------------

    def reply(self, content: str, *, delay_s: float = 0.0, finish_reason: str = "stop") -> None:
        self._queue(Reply(body=json.dumps(_completion(content, finish_reason)).encode(), delay_s=delay_s))

    def reply_json(self, value: Any, **kwargs: Any) -> None:
        self.reply(json.dumps(value), **kwargs)

    def fail(
        self, status: int, message: str = "scripted failure", *, headers: dict[str, str] | None = None
    ) -> None:
        body = json.dumps({"error": {"message": message, "type": "scripted", "code": status}}).encode()
        # Retry-After keeps the client's backoff short when a test allows transport retries.
        self._queue(Reply(status=status, body=body, headers={"retry-after-ms": "10", **(headers or {})}))

    def stream(
        self, pieces: list[str], *, cut: bool = False, piece_delay_s: float = 0.0, finish_reason: str = "stop"
    ) -> None:
        chunks = [_chunk({"role": "assistant", "content": p}, None) for p in pieces]
        if not cut:
            chunks.append(_chunk({}, finish_reason))
        events = tuple(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)
        self._queue(
            Reply(events=events + (() if cut else (b"data: [DONE]\n\n",)), piece_delay_s=piece_delay_s)
        )

    def serve_get(self, path: str, value: Any) -> None:
        self.gets[path] = value

    def raw(self, body: bytes, *, status: int = 200) -> None:
        self._queue(Reply(status=status, body=body))

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._replies)

    def _queue(self, reply: Reply) -> None:
        with self._lock:
            self._replies.append(reply)

    def _next(self, request: dict[str, Any], headers: dict[str, str], path: str) -> Reply:
        with self._lock:
            self.requests.append(request)
            self.headers.append(headers)
            self.paths.append(path)
            if self._replies:
                return self._replies.popleft()
            self.unexpected += 1
        return Reply(status=500, body=b'{"error": {"message": "no scripted reply"}}')

    def _wait_or_hangup(self, connection: socket.socket, seconds: float) -> bool:
        """Wait out a scripted delay; True when cut short by shutdown or by the client hanging up."""
        ends = time.monotonic() + seconds
        # poll, not select: late in a long test session descriptors pass 1024, which select() refuses.
        poller = select.poll()
        poller.register(connection, select.POLLIN)
        while (left := ends - time.monotonic()) > 0:
            if self._stopping.is_set():
                return True
            readable = poller.poll(min(left, 0.02) * 1000)
            if readable and connection.recv(1, socket.MSG_PEEK) == b"":  # EOF: the client closed it
                with self._lock:
                    self.dropped += 1
                return True
        return False

    # -- lifecycle ------------------------------------------------------------------------------

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()  # cuts short any scripted delay still running
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


def _completion(content: str, finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": MODEL,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _chunk(delta: dict[str, Any], finish_reason: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "created": 1_700_000_000,
        "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def _handler_for(server: ChatServer, keep_alive: bool) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

        def do_POST(self) -> None:  # noqa: N802 - the http.server naming
            length = int(self.headers.get("content-length", 0))
            body = json.loads(self.rfile.read(length) or b"{}")
            reply = server._next(body, {k.lower(): v for k, v in self.headers.items()}, self.path)
            if reply.delay_s and server._wait_or_hangup(self.connection, reply.delay_s):
                return
            try:
                self.send_response(reply.status)
                if reply.events:  # HTTP/1.0 without a length: the body ends when the connection closes
                    self.send_header("content-type", "text/event-stream")
                else:
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(reply.body)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(reply.body)
                for event in reply.events:
                    if reply.piece_delay_s and server._wait_or_hangup(self.connection, reply.piece_delay_s):
                        return
                    self.wfile.write(event)
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nothing left to answer

        def do_GET(self) -> None:  # noqa: N802 - the http.server naming
            path = self.path.split("?")[0]
            server.got.append(path)
            found = path in server.gets
            body = json.dumps(server.gets[path] if found else {"error": {"message": "not found"}}).encode()
            self.send_response(200 if found else 404)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep test output clean
            pass

    return Handler


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
