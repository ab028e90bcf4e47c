"""A throw-away local Redis server: ``redis-server`` on 127.0.0.1, a free port, its own directory.

The binary is ``$BOILERPLATE_REDIS_SERVER``, else ``redis-server`` on ``PATH``
(``.ci/redis-setup.sh`` or ``apt-get install redis-server`` provides it). Without
``persist`` the server keeps nothing on disk (no RDB snapshots, no append-only file): stopped,
its data is gone. With ``persist`` it writes an append-only file, flushed on every write
(``appendfsync always``), so a restart (even after SIGKILL) comes back with every write it
acknowledged.

The server gets no descriptor of ours but /dev/null and its own log file, and its own session:
it cannot hold a caller's pipe open, and a Ctrl-C in the terminal does not reach it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

from redis import Redis
from redis.exceptions import RedisError

__all__ = ["LocalRedis", "RedisServerNotFoundError", "redis_server_binary"]

BINARY_VARIABLE = "BOILERPLATE_REDIS_SERVER"


class RedisServerNotFoundError(FileNotFoundError):
    """No ``redis-server`` binary: install one or name it in ``$BOILERPLATE_REDIS_SERVER``."""


def redis_server_binary() -> str:
    """The ``redis-server`` to run; raises :class:`RedisServerNotFoundError` if there is none."""
    binary = os.environ.get(BINARY_VARIABLE) or shutil.which("redis-server")
    if not binary or not os.access(binary, os.X_OK):
        raise RedisServerNotFoundError(
            "redis-server not found: install it (apt-get install redis-server, or run "
            f".ci/redis-setup.sh) or set {BINARY_VARIABLE}=/path/to/redis-server"
        )
    return binary


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LocalRedis:
    """One ``redis-server`` process; a context manager (started on enter, stopped on exit)."""

    def __init__(self, directory: str | Path, *, persist: bool = False) -> None:
        self.directory = Path(directory)
        self.persist = persist
        self.port = _free_port()
        self.binary = redis_server_binary()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log_path(self) -> Path:
        return self.directory / "redis.log"

    def command(self) -> list[str]:
        """The server's command line (no snapshots; an fsynced append-only file if persistent)."""
        return [
            self.binary,
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.directory),
            "--daemonize", "no",
            "--logfile", str(self.log_path),
            "--save", "",
            "--appendonly", "yes" if self.persist else "no",
            "--appendfsync", "always",
        ]  # fmt: skip

    def start(self, timeout: float = 15.0) -> LocalRedis:
        """Start the server and wait until it answers PING (raises RuntimeError if it does not)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self._process = subprocess.Popen(
            self.command(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            start_new_session=True,
        )
        client = Redis.from_url(self.url, socket_timeout=1)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                break
            try:
                if client.ping():
                    return self
            except RedisError:
                time.sleep(0.05)
        self.stop()
        log = self.log_path.read_text(errors="replace")[-2000:] if self.log_path.exists() else ""
        raise RuntimeError(f"redis-server did not start on port {self.port}:\n{log}")

    def client(self) -> Redis:
        return Redis.from_url(self.url)

    def kill(self) -> None:
        """SIGKILL the server (a crash: a persistent one keeps what it acknowledged)."""
        self._signal(signal.SIGKILL)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
        self._signal(signal.SIGTERM)

    def restart(self) -> None:
        """Kill the server and start it again on the same port and directory."""
        self.kill()
        self.start()

    def _signal(self, number: signal.Signals) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(number)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> LocalRedis:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
