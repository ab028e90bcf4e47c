"""Supervised extraction workers that cannot hang a crawl: processes or daemon threads.

Both pools take ``submit(function, args, url)`` and return a Deferred of ``function(*args)``,
run elsewhere, with a time limit per call counted from the moment a worker starts it.

:class:`ProcessWorkers` forks N worker processes from the reactor thread and talks to each over
its own socket pair, read and written by the reactor without blocking (no shared queue, no
lock, no manager thread). A fresh worker first runs the pool's ``warm_up`` (in its own process,
so the reactor is not held up) and says it is ready; only then is it sent calls. It runs one call
at a time, with the next one waiting in its
socket so that it never idles between calls, so:

* a worker that dies (SIGKILL, out of memory, a crash) costs only the call it was running (the
  waiting one goes back to the queue, unstarted);
  that call is run once more on a fresh worker, and fails with :class:`WorkerDiedError` if it
  kills that one too (it may be what kills them);
* a call over the time limit fails with :class:`ExtractionTimeoutError`; its worker is killed and
  replaced; calls queued behind it go on;
* a worker ignores SIGINT (Ctrl-C in a terminal reaches the whole process group: the crawl
  decides), takes the default action for SIGTERM, and dies with its parent (Linux:
  ``PR_SET_PDEATHSIG``; elsewhere it exits when its socket closes).

Workers are forked on the reactor thread only (at start-up and when one is replaced), never on
a thread the parent could lose: a fork copies only the calling thread.

:class:`ThreadWorkers` runs calls on N daemon threads. A thread cannot be killed: a call over
the time limit fails with :class:`ExtractionTimeoutError`, its thread is abandoned (it finishes the
call in the background, its result dropped, and exits) and a fresh thread takes its place.
Daemon threads never hold up interpreter exit.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import pickle
import queue
import signal
import socket
import struct
import sys
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from twisted.internet import protocol
from twisted.internet.base import DelayedCall
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IPullProducer
from twisted.python.failure import Failure
from zope.interface import implementer

__all__ = [
    "ExtractionTimeoutError",
    "PoolBrokenError",
    "PoolClosedError",
    "ProcessWorkers",
    "ThreadWorkers",
    "WorkerDiedError",
    "Workers",
]

_HEADER = struct.Struct("!Q")  # frame length in bytes, big-endian
#: Calls given to one worker at a time: one running, one waiting in its socket.
CALLS_PER_WORKER = 2
#: Seconds a new worker may take to warm up before it is killed (and counted as a death).
READY_TIMEOUT = 60.0
#: Socket buffer size (bytes): a page and its result fit, so neither side waits on the other.
_SOCKET_BUFFER = 4 * 1024 * 1024
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


class WorkerDiedError(Exception):
    """The worker process running the call died, on its first run and on its one retry."""


class ExtractionTimeoutError(Exception):
    """The call ran longer than the pool's time limit (seconds in the message)."""


class PoolClosedError(Exception):
    """The pool was closed before the call finished."""


class PoolBrokenError(PoolClosedError):
    """The pool gave up (its workers kept dying) before this call started: run it elsewhere."""


#: ``on_event(kind, url, detail)``: what a pool tells its owner (for stats and logs).
EventCallback = Callable[[str, str | None, str], None]


def _ignore_event(kind: str, url: str | None, detail: str) -> None:
    pass


class Workers(Protocol):
    """What the runtime needs of a pool."""

    def submit(
        self, function: Callable[..., Any], args: tuple[Any, ...], url: str | None
    ) -> Deferred[Any]:
        """Run ``function(*args)`` in a worker; ``url`` names the page in errors."""

    def close(self) -> None:
        """Stop every worker now; calls not finished fail with :class:`PoolClosedError`."""


@dataclass(eq=False)
class _Call:
    payload: bytes
    url: str | None
    deferred: Deferred[Any] = field(default_factory=Deferred)
    attempts: int = 0


# -- the worker side --------------------------------------------------------------------------


def _detach(parent_pid: int, stale_fds: list[int]) -> None:
    """Undo what a worker inherited from the crawl: signal handlers, sibling sockets."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP", "SIGQUIT", "SIGCHLD", "SIGBREAK"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before the death signal was armed
        os._exit(0)
    for fd in stale_fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = sock.recv(min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _serve(
    sock: socket.socket,
    parent_pid: int,
    stale_fds: list[int],
    warm_up: Callable[[], object] | None = None,
) -> None:
    """A worker's loop: run ``warm_up()`` (its errors ignored), say it is ready (an empty
    frame), then read a call, run it, write ``(ok, value)`` back, until the socket closes.

    What the worker holds once warmed up (the crawl's objects inherited by the fork, the
    imported modules) is frozen out of the garbage collector: its collections then scan only
    what the calls make, and never touch (so never copy) the pages shared with the crawl."""
    _detach(parent_pid, stale_fds)
    if warm_up is not None:
        with contextlib.suppress(Exception):  # the calls find out, with their URLs
            warm_up()
    gc.freeze()
    sock.sendall(_HEADER.pack(0))
    while True:
        header = _read_exactly(sock, _HEADER.size)
        if header is None:
            return
        frame = _read_exactly(sock, _HEADER.unpack(header)[0])
        if frame is None:
            return
        function, args = pickle.loads(frame)
        try:
            reply = pickle.dumps((True, function(*args)), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # the call's own error, or an unpicklable result
            reply = _pickled_error(exc)
        sock.sendall(_HEADER.pack(len(reply)) + reply)


def _pickled_error(exc: Exception) -> bytes:
    try:
        return pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
    except Exception:
        return pickle.dumps((False, RuntimeError(repr(exc))), pickle.HIGHEST_PROTOCOL)


# -- the reactor side -------------------------------------------------------------------------


@implementer(IPullProducer)
class _Channel(protocol.Protocol):
    """The reactor's end of one worker's socket: length-prefixed frames in both directions.

    A frame is written straight to the socket when nothing waits in the transport's buffer
    (usually all of it: the buffers hold a page), with no write callback to register; whatever
    the socket does not take goes through the transport, and frames queue behind it until the
    transport has drained (it asks its pull producer, this channel, for more).
    """

    def __init__(self, worker: _Worker) -> None:
        self.worker = worker
        self._buffer = bytearray()
        self._expected: int | None = None
        self._transport_busy = False

    def send(self, payload: bytes) -> None:
        header = _HEADER.pack(len(payload))
        sent = 0 if self._transport_busy else self._send_now(header, payload)
        if sent == len(header) + len(payload):
            return
        transport: Any = self.transport
        self._transport_busy = True
        if sent < len(header):
            transport.write(header[sent:] + payload)
        else:
            transport.write(payload[sent - len(header) :])

    def _send_now(self, header: bytes, payload: bytes) -> int:
        """Bytes of ``header + payload`` the socket took at once (0 if it would block or the
        transport is gone; the transport then writes, or reports the loss)."""
        transport: Any = self.transport
        try:
            sent: int = transport.getHandle().sendmsg([header, payload])
        except (OSError, AttributeError):
            return 0
        return sent

    def resumeProducing(self) -> None:  # noqa: N802 (Twisted API: the transport has drained)
        self._transport_busy = False

    def stopProducing(self) -> None:  # noqa: N802 (Twisted API)
        pass

    def connectionMade(self) -> None:  # noqa: N802 (Twisted API)
        transport: Any = self.transport
        transport.bufferSize = _SOCKET_BUFFER  # read a whole result at once
        transport.registerProducer(self, False)

    def dataReceived(self, data: bytes) -> None:  # noqa: N802 (Twisted API)
        self._buffer += data
        while True:
            if self._expected is None:
                if len(self._buffer) < _HEADER.size:
                    return
                self._expected = _HEADER.unpack_from(self._buffer)[0]
                del self._buffer[: _HEADER.size]
            if len(self._buffer) < self._expected:
                return
            frame = bytes(self._buffer[: self._expected])
            del self._buffer[: self._expected]
            self._expected = None
            self.worker.replied(frame)

    def connectionLost(self, reason: Failure = protocol.connectionDone) -> None:  # noqa: N802
        self.worker.lost()


class _Worker:
    """One worker process, its channel, and its calls: the first runs, the next waits in its
    socket (so the worker never idles between calls), at most ``CALLS_PER_WORKER`` in all."""

    def __init__(self, pool: ProcessWorkers, process: multiprocessing.process.BaseProcess) -> None:
        self.pool = pool
        self.process = process
        self.channel = _Channel(self)
        self.calls: deque[_Call] = deque()
        self.timer: DelayedCall | None = None
        self.alive = True
        self.ready = False  # until its warm-up is done: no calls are sent before
        self.ready_timer: DelayedCall | None = None

    def send(self, call: _Call) -> None:
        self.calls.append(call)
        self.channel.send(call.payload)
        if len(self.calls) == 1:
            self._started()

    def replied(self, frame: bytes) -> None:
        if not self.ready:  # the empty frame that ends the warm-up
            self.ready = True
            self._cancel_ready_timer()
            self.pool.became_ready()
            return
        self._cancel_timer()
        if not self.calls:
            return
        call = self.calls.popleft()
        if self.calls:
            self._started()
        self.pool.finished(self, call, frame)

    def take_calls(self) -> tuple[_Call | None, list[_Call]]:
        """The running call and the waiting ones, removed from this worker."""
        calls, self.calls = list(self.calls), deque()
        return (calls[0] if calls else None), calls[1:]

    def lost(self) -> None:
        self._cancel_ready_timer()
        if self.alive:
            self.alive = False
            self._cancel_timer()
            self.pool.died(self)

    def never_ready(self) -> None:
        """The warm-up took too long: SIGKILL the process; its channel's loss makes it a death
        (counted towards ``max_failed_starts``) and it is replaced."""
        self.ready_timer = None
        if self.alive and not self.ready:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                self.process.kill()

    def kill(self) -> None:
        """SIGKILL the process and reap it; the channel's loss is then ignored."""
        self.alive = False
        self._cancel_timer()
        self._cancel_ready_timer()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.process.kill()
        self.reap()
        transport: Any = self.channel.transport
        if transport is not None:
            transport.loseConnection()

    def reap(self) -> None:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            self.process.join(5)

    def _started(self) -> None:
        """The first call starts running now: count its attempt, start its clock."""
        self.calls[0].attempts += 1
        if self.pool.timeout:
            self.timer = self.pool.reactor.callLater(self.pool.timeout, self.pool.timed_out, self)

    def _cancel_timer(self) -> None:
        if self.timer is not None and self.timer.active():
            self.timer.cancel()
        self.timer = None

    def _cancel_ready_timer(self) -> None:
        if self.ready_timer is not None and self.ready_timer.active():
            self.ready_timer.cancel()
        self.ready_timer = None


class _Pool:
    """What both pools hold: size, time limit (seconds, 0 = none), reactor, event callback."""

    def __init__(
        self, size: int, timeout: float, reactor: Any, on_event: EventCallback = _ignore_event
    ) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        self.size = size
        self.timeout = timeout
        self.reactor = reactor
        self.on_event = on_event
        self.closed = False


class ProcessWorkers(_Pool):
    """N supervised worker processes, fed from the reactor thread (see the module docstring).

    ``warm_up()`` runs first in each new worker; one not ready after ``ready_timeout`` seconds
    is killed, which counts as a death.

    ``on_event(kind, url, detail)`` is told of every ``"died"``, ``"retried"``,
    ``"timed_out"`` and ``"restarted"`` event (for stats and logs). After ``max_failed_starts``
    workers in a row die before finishing any call, the pool gives up: :attr:`broken` is set and
    the calls that never started fail with :class:`PoolBrokenError`, for the caller to run
    elsewhere (the runtime runs them in threads).
    """

    def __init__(
        self,
        size: int,
        timeout: float,
        reactor: Any,
        on_event: EventCallback = _ignore_event,
        max_failed_starts: int = 10,
        warm_up: Callable[[], object] | None = None,
        ready_timeout: float = READY_TIMEOUT,
    ) -> None:
        super().__init__(size, timeout, reactor, on_event)
        self.max_failed_starts = max_failed_starts
        self.warm_up = warm_up
        self.ready_timeout = ready_timeout
        self.broken = False
        self._workers: list[_Worker] = []
        self._pending: deque[_Call] = deque()
        self._deaths_in_a_row = 0
        methods = multiprocessing.get_all_start_methods()
        if "fork" not in methods:
            raise OSError("worker processes need the fork start method")
        self._context = multiprocessing.get_context("fork")

    def start(self) -> None:
        """Fork the workers now (call on the reactor thread, before the crawl starts threads)."""
        while len(self._workers) < self.size:
            self._spawn()

    def submit(
        self, function: Callable[..., Any], args: tuple[Any, ...], url: str | None
    ) -> Deferred[Any]:
        """Queue ``function(*args)``; the Deferred fires with its value or its exception."""
        call = _Call(pickle.dumps((function, args), pickle.HIGHEST_PROTOCOL), url)
        if self.closed or self.broken:
            call.deferred.errback(PoolClosedError("the worker pool is closed"))
            return call.deferred
        self._pending.append(call)
        self._dispatch()
        return call.deferred

    def close(self) -> None:
        """Kill every worker; unfinished calls fail with :class:`PoolClosedError`."""
        self.closed = True
        workers, self._workers = self._workers, []
        for worker in workers:
            running, waiting = worker.take_calls()
            worker.kill()
            self._pending.extendleft(reversed([running, *waiting] if running else waiting))
        self._fail_pending(PoolClosedError("the worker pool was closed"))

    @property
    def pids(self) -> list[int]:
        """Process ids of the live workers (for tests and fault injection)."""
        return [worker.process.pid for worker in self._workers if worker.process.pid]

    # -- events from workers ------------------------------------------------------------------
    def became_ready(self) -> None:
        self._dispatch()

    def finished(self, worker: _Worker, call: _Call, frame: bytes) -> None:
        self._deaths_in_a_row = 0
        try:
            ok, value = pickle.loads(frame)
        except Exception as exc:
            ok, value = False, exc
        if ok:
            call.deferred.callback(value)
        else:
            call.deferred.errback(Failure(value))
        self._dispatch()

    def died(self, worker: _Worker) -> None:
        self._forget(worker)
        worker.reap()
        call, waiting = worker.take_calls()
        self._pending.extendleft(reversed(waiting))  # never started: they go first, as they were
        detail = f"exit code {worker.process.exitcode}"
        self.on_event("died", call.url if call else None, detail)
        self._deaths_in_a_row += 1
        if call is not None and call.attempts < 2:
            self.on_event("retried", call.url, detail)
            self._pending.appendleft(call)
            call = None
        if self._deaths_in_a_row >= self.max_failed_starts:
            self.broken = True
            self._fail_pending(PoolBrokenError(f"{self._deaths_in_a_row} workers died in a row"))
        else:
            self._replace()
        if call is not None:
            call.deferred.errback(WorkerDiedError(f"the worker died twice on this page ({detail})"))

    def timed_out(self, worker: _Worker) -> None:
        worker.timer = None
        call, waiting = worker.take_calls()
        self._pending.extendleft(reversed(waiting))
        self._forget(worker)
        worker.kill()
        self._replace()
        if call is not None:
            self.on_event("timed_out", call.url, f"{self.timeout:g} s")
            limit = f"extraction took longer than {self.timeout:g} s"
            call.deferred.errback(ExtractionTimeoutError(limit))

    # -- internals ----------------------------------------------------------------------------
    def _replace(self) -> None:
        if self.closed or self.broken:
            return
        try:
            self._spawn()
        except OSError as exc:
            self.broken = True
            self._fail_pending(PoolBrokenError(f"cannot start a worker process: {exc!r}"))
            return
        self.on_event("restarted", None, f"{len(self._workers)} worker(s)")
        self._dispatch()

    def _spawn(self) -> None:
        parent_end, child_end = socket.socketpair()
        for end in (parent_end, child_end):
            for option in (socket.SO_SNDBUF, socket.SO_RCVBUF):
                with contextlib.suppress(OSError):
                    end.setsockopt(socket.SOL_SOCKET, option, _SOCKET_BUFFER)
        stale = [parent_end.fileno()] + [
            worker.channel.transport.fileno()
            for worker in self._workers
            if worker.channel.transport is not None
        ]
        try:
            process = self._context.Process(
                target=_serve,
                args=(child_end, os.getpid(), stale, self.warm_up),
                name="boilerplate-worker",
                daemon=True,
            )
            process.start()
        finally:
            child_end.close()
        worker = _Worker(self, process)
        worker.ready_timer = self.reactor.callLater(self.ready_timeout, worker.never_ready)
        self._workers.append(worker)
        try:
            self.reactor.adoptStreamConnection(
                parent_end.fileno(), socket.AF_UNIX, _SingleProtocolFactory(worker.channel)
            )
        finally:
            parent_end.close()

    def _dispatch(self) -> None:
        """Give each worker calls up to ``CALLS_PER_WORKER``, the least busy worker first."""
        for depth in range(CALLS_PER_WORKER):
            for worker in self._workers:
                if not self._pending:
                    return
                if worker.alive and worker.ready and len(worker.calls) <= depth:
                    worker.send(self._pending.popleft())

    def _forget(self, worker: _Worker) -> None:
        if worker in self._workers:
            self._workers.remove(worker)

    def _fail_pending(self, error: Exception) -> None:
        pending, self._pending = self._pending, deque()
        for call in pending:
            call.deferred.errback(Failure(error))


class _SingleProtocolFactory(protocol.Factory):
    def __init__(self, channel: _Channel) -> None:
        self.channel = channel

    def buildProtocol(self, addr: Any) -> _Channel:  # noqa: N802 (Twisted API)
        return self.channel


# -- threads ----------------------------------------------------------------------------------


@dataclass(eq=False)
class _ThreadCall:
    function: Callable[..., Any]
    args: tuple[Any, ...]
    url: str | None
    deferred: Deferred[Any] = field(default_factory=Deferred)
    timer: DelayedCall | None = None
    done: bool = False


@dataclass(eq=False)
class _ThreadSlot:
    abandoned: bool = False


class ThreadWorkers(_Pool):
    """N daemon threads with a time limit per call (see the module docstring).

    ``on_event("timed_out", url, detail)`` is told of every call over the limit.
    """

    def __init__(
        self, size: int, timeout: float, reactor: Any, on_event: EventCallback = _ignore_event
    ) -> None:
        super().__init__(size, timeout, reactor, on_event)
        self.abandoned = 0
        self._queue: queue.SimpleQueue[_ThreadCall | None] = queue.SimpleQueue()
        self._slots: list[_ThreadSlot] = []
        for _ in range(size):
            self._start_thread()

    def submit(
        self, function: Callable[..., Any], args: tuple[Any, ...], url: str | None
    ) -> Deferred[Any]:
        call = _ThreadCall(function, args, url)
        if self.closed:
            call.deferred.errback(PoolClosedError("the worker pool is closed"))
        else:
            self._queue.put(call)
        return call.deferred

    def close(self) -> None:
        """Fail the queued calls; the threads exit after their current call."""
        self.closed = True
        while True:
            try:
                call = self._queue.get_nowait()
            except queue.Empty:
                break
            if call is not None:
                self._settle(call, Failure(PoolClosedError("the worker pool was closed")))
        for _ in self._slots:
            self._queue.put(None)

    def _start_thread(self) -> None:
        slot = _ThreadSlot()
        self._slots.append(slot)
        thread = threading.Thread(target=self._loop, args=(slot,), name="boilerplate", daemon=True)
        thread.start()

    def _loop(self, slot: _ThreadSlot) -> None:
        while not slot.abandoned:
            call = self._queue.get()
            if call is None:
                return
            self.reactor.callFromThread(self._started, call, slot)
            try:
                outcome: Any = call.function(*call.args)
            except Exception:
                outcome = Failure()
            self.reactor.callFromThread(self._settle, call, outcome)

    def _started(self, call: _ThreadCall, slot: _ThreadSlot) -> None:
        if self.timeout and not call.done:
            call.timer = self.reactor.callLater(self.timeout, self._timed_out, call, slot)

    def _timed_out(self, call: _ThreadCall, slot: _ThreadSlot) -> None:
        call.timer = None
        slot.abandoned = True
        self._slots.remove(slot)
        self.abandoned += 1
        self.on_event("timed_out", call.url, f"{self.timeout:g} s")
        self._settle(
            call, Failure(ExtractionTimeoutError(f"extraction took longer than {self.timeout:g} s"))
        )
        if not self.closed:
            self._start_thread()

    def _settle(self, call: _ThreadCall, outcome: Any) -> None:
        if call.done:
            return
        call.done = True
        if call.timer is not None and call.timer.active():
            call.timer.cancel()
        if isinstance(outcome, Failure):
            call.deferred.errback(outcome)
        else:
            call.deferred.callback(outcome)
