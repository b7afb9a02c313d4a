"""A command server: one exec that stays in a warm container and starts command after command.

Every exec costs the engine a runtime process (about 85 ms on runc, more on gVisor), and a
check under `isolation: namespace` ran three or four of them. So each warm container gets,
per user that runs commands there, one long exec of `SERVER` (a Perl loop: `perl-base` is in
every Debian image), and each command after that is a request on its stdin: its argv, its
environment, its stdin. The server forks, the child runs the argv exactly as an exec would
(same user, same container, `/work`, the container's environment plus the request's), and
when it has exited the server prints an end line on both streams, tagged with a key the
request carried. The command's output goes straight to the exec's streams, read by the host
as an exec's (`stream.pump`): capped, with its deadline and its flood stop.

Why a command cannot forge the end: its key is a fresh secret per request, written only to
the server's stdin, which no command can read (each gets a pipe of its own input instead),
and every command that runs code runs in its own pid namespace (`namespaces.ENTER`), so it can
see neither the server nor its memory. Its processes are gone when the server's line comes
(the kernel kills a pid namespace with its first process), so nothing of it can print after.
A command that runs past its deadline or floods is stopped as any exec is, by killing every
process of its user, the server with it: the next command starts a new one.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from docker import APIClient

from tdd_sandbox.sandbox.base import WORKDIR
from tdd_sandbox.sandbox.client import hijacked
from tdd_sandbox.sandbox.stream import CappedText, Ending, pump

SERVER = r"""
use strict; use POSIX ();
$SIG{PIPE} = 'IGNORE';
binmode STDIN;
my %base = %ENV;
sub take { my ($n, $b) = (shift, '');
  while (length($b) < $n) { read(STDIN, $b, $n - length($b), length($b)) or POSIX::_exit(0) }
  return $b }
sub field { my $l = <STDIN>; POSIX::_exit(0) unless defined $l;
  $l =~ /\A(\d+)\n\z/ or POSIX::_exit(2); return take($1) }
my ($hello, @zygote) = @ARGV;
my $warm = 0;
if (@zygote) {
  # The warm interpreter (zygote.py), told this server's pid: it goes when the server goes.
  # Never reaped here: its pid stays taken while the server lives, so no process of a check
  # can ever hold the pid the host spares.
  $warm = fork;
  if (defined $warm && $warm == 0) {
    open(STDIN, '<', '/dev/null'); open(STDOUT, '>', '/dev/null'); open(STDERR, '>', '/dev/null');
    exec { $zygote[0] } @zygote, getppid(); POSIX::_exit(127);
  }
  $warm ||= 0;
}
syswrite STDERR, "\n\@\@$hello ready $$ $warm\n";
while (defined(my $head = <STDIN>)) {
  my ($key, $argc, $envc, $size) = $head =~ /\A(\w+) (\d+) (\d+) (\d+)\n\z/ or POSIX::_exit(2);
  my @argv = map { field() } 1 .. $argc;
  my %env = map { split /=/, field(), 2 } 1 .. $envc;
  my $input = take($size);
  pipe(my $r, my $w) or POSIX::_exit(3);
  my $pid = fork;
  POSIX::_exit(3) unless defined $pid;
  if ($pid == 0) {
    close $w; open(STDIN, '<&', $r) or POSIX::_exit(126); close $r;
    %ENV = (%base, %env); chdir '/work' or POSIX::_exit(126);
    exec { $argv[0] } @argv; POSIX::_exit(127);
  }
  close $r;
  while (length $input) { my $n = syswrite($w, $input) or last; substr($input, 0, $n) = '' }
  close $w;
  waitpid($pid, 0);
  my $rc = ($? & 127) ? 128 + ($? & 127) : $? >> 8;
  syswrite STDOUT, "\n\@\@$key end\n";
  syswrite STDERR, "\n\@\@$key end rc=$rc\n";
}
"""
"""The server, given a nonce for its ready line and, for a warm interpreter, its argv (the
server's pid goes after it). A request is a head line (`key argc envc
size`), then each argument and each `NAME=value` as a line with its length and its bytes, then
`size` bytes of the command's stdin."""

_START_S = 30.0
"""How long a server may take to say it is ready (gVisor under load)."""


@dataclass(frozen=True)
class Served:
    """How one command went: why reading stopped, and its exit status (None unless it ended
    by itself)."""

    ending: Ending
    code: int | None


class CommandServer:
    """One server exec in a container, as one user; runs one command at a time."""

    def __init__(
        self, api: APIClient, container: str, user: str, *, zygote: Sequence[str] = ()
    ) -> None:
        """Start the server, and with it the warm interpreter `zygote` (an argv) if any.

        Raises:
            docker.errors.APIError, OSError: the engine could not start it, or it did not
                say it was ready (the caller treats that as any failed exec).
        """
        self.user = user
        # A close from another thread while a command's output is read only shuts the stream
        # down (which wakes the reader); the reader closes it. Closing a descriptor another
        # thread is about to wait on frees its number for the next socket opened, and the wait
        # then went to that socket: a stopped race's reader waited out a 900 s deadline.
        self._closing = threading.Lock()
        self._reading = False
        self._closed = False
        hello = secrets.token_hex(8)
        argv = ["perl", "-e", SERVER, hello, *zygote]
        exec_id = api.exec_create(container, argv, user=user, workdir=WORKDIR, stdin=True)["Id"]
        self._hijacked = hijacked(api.exec_start(exec_id, socket=True))
        self._raw: Any = self._hijacked.__enter__()
        out, err = CappedText(4096), CappedText(4096)
        ready = re.compile(rf"\n@@{hello} ready (\d+) (\d+)\n")
        pump(self._raw, out, err, deadline=time.monotonic() + _START_S, flood_limit=1 << 16,
             until=lambda: ready.search(err.text()) is not None)  # fmt: skip
        found = ready.search(err.text())
        if found is None:
            self.close()
            raise OSError(f"the command server did not start: {err.text()[-200:]!r}")
        self.pid = int(found.group(1))
        self.zygote = int(found.group(2)) or None
        """The warm interpreter's pid (None without one): it lives as long as the server."""
        self.alive = True
        self.busy = False
        """Whether a command of its is running (the caller is reading its output)."""

    def run(
        self,
        argv: Sequence[str],
        out: CappedText,
        err: CappedText,
        *,
        env: Mapping[str, str] | None,
        stdin: bytes | None,
        deadline: float | Callable[[], float],
        flood_limit: int,
    ) -> Served:
        """Run `argv` to its end, its deadline or its flood, its output into `out` and `err`
        (the server's end lines taken off). A command that did not end leaves the server
        busy: the caller must stop it (and with it this server), and then `close` it.

        Raises:
            OSError: the request could not be sent (the server or its container is gone).
        """
        key = secrets.token_hex(16)
        fields = [*argv, *(f"{name}={value}" for name, value in (env or {}).items())]
        request = bytearray(f"{key} {len(argv)} {len(env or {})} {len(stdin or b'')}\n".encode())
        for item in fields:
            data = item.encode()
            request += f"{len(data)}\n".encode() + data
        request += stdin or b""
        self.busy = True
        end_out = f"\n@@{key} end\n".encode()
        end_err = re.compile(rb"\n@@" + key.encode() + rb" end rc=(\d+)\n\Z")

        def ended() -> bool:
            return out.endswith(end_out) and end_err.search(err.tail(64)) is not None

        with self._closing:
            if self._closed:
                raise OSError("the command server was closed")
            self._reading = True
        try:
            # The server reads a whole request before it starts the command: only a server
            # that no longer reads (its container frozen) makes this wait, and not for ever.
            self._raw.settimeout(_START_S)
            try:
                self._raw.sendall(bytes(request))
            finally:
                self._raw.settimeout(None)
            ending = pump(self._raw, out, err, deadline=deadline, flood_limit=flood_limit,
                          until=ended)  # fmt: skip
        finally:
            with self._closing:
                self._reading = False
                closed = self._closed
            if closed:
                self._release()
        if ending is not Ending.EOF or not ended():
            self.alive = False
            return Served(Ending.EOF if ending is Ending.EOF else ending, None)
        self.busy = False
        found = end_err.search(err.tail(64))
        assert found is not None
        out.trim(len(end_out))
        err.trim(len(found.group(0)))
        return Served(Ending.EOF, int(found.group(1)))

    def close(self) -> None:
        """End the server's stream (the server exits at the end of its input). Called from
        another thread while a command runs, it wakes that command's reader, which ends as at
        the end of the stream and closes it."""
        self.alive = False
        with self._closing:
            self._closed = True
            reading = self._reading
        if reading:
            with contextlib.suppress(OSError):
                self._raw.shutdown(socket.SHUT_RDWR)
            return
        self._release()

    def _release(self) -> None:
        with contextlib.suppress(OSError):
            self._hijacked.__exit__(None, None, None)


def serve(
    server: Callable[[], CommandServer],
    forget: Callable[[], None],
    argv: Sequence[str],
    out: CappedText,
    err: CappedText,
    *,
    env: Mapping[str, str] | None,
    stdin: bytes | None,
    deadline: float | Callable[[], float],
    flood_limit: int,
) -> Served:
    """`argv` run by `server()` (see `CommandServer.run`); a server found gone before the
    command began (killed while it idled, as an OOM kill in a check beside it may do: the
    request could not be sent, or its stream ended with nothing of the command on it) is
    forgotten and the command sent once more to a new one. Nothing ran: no verdict is lost.

    Raises:
        OSError: the new server could not be reached either.
    """
    for attempt in range(2):
        try:
            served = server().run(argv, out, err, env=env, stdin=stdin, deadline=deadline,
                                  flood_limit=flood_limit)  # fmt: skip
        except OSError:
            if attempt:
                raise
        else:
            began = served.code is not None or served.ending is not Ending.EOF
            if began or out.total or err.total or attempt:
                return served
        forget()
    raise AssertionError("unreachable")
