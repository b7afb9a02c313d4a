"""A TCP listener on this machine that records who connected: the target of network tests.

It binds every local address, so a sandbox could reach it through the Docker bridge
gateway or the host's own address if its isolation were broken; nothing outside this
machine is ever contacted.
"""

from __future__ import annotations

import socket
import threading

from tdd_sandbox.closing import Closing


class Listener(Closing):
    """Accepts connections in a thread until closed; `connections` counts them."""

    def __init__(self) -> None:
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("0.0.0.0", 0))
        self._server.listen(16)
        self._server.settimeout(0.2)
        self.port = int(self._server.getsockname()[1])
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        """Stop accepting and release the port."""
        self._stop.set()
        self._thread.join(timeout=2)
        self._server.close()


def host_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses, as the sandbox might try to reach them."""
    found = set()
    for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
        address = str(info[4][0])
        if not address.startswith("127."):
            found.add(address)
    return sorted(found)
