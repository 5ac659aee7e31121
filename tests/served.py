"""`python -m ui.serve` as `make run` starts it, on a free loopback port, for tests that need the real
server process (the warm-up opens the engine before the server listens)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT_S = 180


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def clean_env(**values: str) -> dict[str, str]:
    """The environment without the developer's RRAG_* variables or key, plus `values`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RRAG_") and k != "OPENAI_API_KEY"}
    return env | values


@contextmanager
def running(args: list[str], env: Mapping[str, str], log: Path, ready_url: str) -> Iterator[None]:
    """A process run from the repository root, its output in `log`, until `ready_url` answers 200;
    RuntimeError, with the log, if it exits or is not up in time. Stopped after the block."""
    with log.open("w") as out:
        process = subprocess.Popen(args, cwd=ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while True:
                try:
                    with urllib.request.urlopen(ready_url, timeout=2) as reply:
                        if reply.status == 200:
                            break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(
                            f"{args[:3]} did not come up (exit {process.poll()}):\n{log.read_text()}"
                        ) from None
                    time.sleep(0.5)
            yield
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextmanager
def serve(env: Mapping[str, str], log: Path, *options: str) -> Iterator[str]:
    """The app served by `python -m ui.serve` on a free loopback port; yields its URL once it is up."""
    port = free_port()
    args = [sys.executable, "-m", "ui.serve", "--server.headless", "true", "--server.port", str(port)]
    args += ["--browser.gatherUsageStats", "false", *options]
    url = f"http://127.0.0.1:{port}"
    with running(args, env, log, f"{url}/_stcore/health"):
        yield url
