"""Serve generated demo sites from one local port, by host name.

Every site has its own host name (``www.harbourledger.test``...). The server answers both
plain requests (host from the ``Host`` header) and proxy-style requests whose request line
holds the absolute URL, so a crawler pointed at ``http://127.0.0.1:PORT`` as its HTTP proxy
fetches the sites under their real names without any DNS set-up.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections import Counter
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit

__all__ = ["DemoSiteServer"]

_NOT_FOUND = (
    b"<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>404</h1></body></html>"
)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def _resolve(self) -> tuple[str, str]:
        parts = urlsplit(self.path)
        # A proxy-style request line holds the absolute URL; else the Host header names the site.
        host = parts.netloc if parts.scheme and parts.netloc else self.headers.get("Host", "")
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        return host.split(":")[0].lower(), path

    def _respond(self, with_body: bool) -> None:
        host, path = self._resolve()
        entry = self.server.manifest.get(host, {}).get(path)
        if entry is None:
            status, content_type, body, kind = (
                404,
                "text/html; charset=utf-8",
                _NOT_FOUND,
                "missing",
            )
        else:
            status, content_type, kind = 200, entry["type"], entry["kind"]
            body = (self.server.root / entry["file"]).read_bytes()
        self.server.count(kind, f"http://{host}{path}" if entry is not None else None)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if with_body:
            self.wfile.write(body)

    def do_GET(self) -> None:
        self._respond(with_body=True)

    def do_HEAD(self) -> None:
        self._respond(with_body=False)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(
        self, address: tuple[str, int], root: Path, manifest: dict[str, dict[str, dict[str, str]]]
    ) -> None:
        super().__init__(address, _Handler)
        self.root = root
        self.manifest = manifest
        self.hits: Counter[str] = Counter()
        self.fetches: Counter[str] = Counter()
        self._lock = threading.Lock()

    def handle_error(self, request: object, client_address: object) -> None:
        """Ignore clients that went away (a killed crawler); report anything else."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]

    def count(self, kind: str, url: str | None = None) -> None:
        with self._lock:
            self.hits[kind] += 1
            if url is not None:
                self.fetches[url] += 1


class DemoSiteServer:
    """A threaded HTTP server on 127.0.0.1 for a generated site directory; a context manager.

    ``port=0`` picks a free port. ``hits`` counts served responses by page kind (``article``,
    ``listing``, ``static``, ``feed``, ``sitemap``, ``robots``, ``missing`` for 404s);
    ``fetches`` counts the responses of each served URL (``http://host/path``; 404s not
    included), so a page fetched twice shows a count of 2.
    """

    def __init__(self, site_dir: str | Path, port: int = 0) -> None:
        root = Path(site_dir)
        manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
        self._server = _Server(("127.0.0.1", port), root, manifest)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def proxy_url(self) -> str:
        """The URL to give a crawler as its HTTP proxy."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def hits(self) -> Counter[str]:
        return self._server.hits

    @property
    def fetches(self) -> Counter[str]:
        return self._server.fetches

    def start(self) -> DemoSiteServer:
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="demo-site", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> DemoSiteServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Serve generated demo sites (use as an HTTP proxy)."
    )
    parser.add_argument("site_dir")
    parser.add_argument("--port", type=int, default=8750)
    args = parser.parse_args(argv)
    server = DemoSiteServer(args.site_dir, args.port)
    print(
        f"Serving {args.site_dir}; set http_proxy={server.proxy_url} and open e.g. "
        "http://www.harbourledger.test/ (Ctrl-C stops)"
    )
    try:
        server._server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._server.server_close()


if __name__ == "__main__":
    main()
