"""A warm interpreter: a Python process with the test runner already imported, forked into each
check's fresh namespaces instead of starting a new interpreter there.

Importing pytest takes about 0.2 s of a 0.3 s test run, and a Python cycle runs pytest three
times. So a warm container's command server for each sandbox user starts, before any check
runs there, one `ZYGOTE`: `python3 -I -B` that imports the modules its language names
(`RunnerDefaults.preload`) and then waits on an abstract socket that only the container's own
network namespace reaches (no check's code runs there: each has a network namespace of its
own). A `python3 -I -B -c SOURCE ARGS` command of a check is then sent to it: `namespaces.ENTER`
connects to the socket before it makes the check's namespaces and hands the connection down as
fd 3; inside them, `CLIENT` sends the command, its environment, its standard streams and its
namespaces (as fds) over it. The zygote forks a handler, which joins those namespaces exactly
as the command's own process holds them (the user namespace that owns the mounts first, then
the mount, IPC, UTS, network and pid namespaces, then the code's own user namespace), drops
every capability that gave it, checks that none is left, and forks the interpreter that runs
SOURCE in the check's pid namespace, as `python3 -I -B -c` would have run it there.

Why this keeps a check fresh: the zygote runs no code of any check, and each fork starts from
its memory as it was before the first one; nothing a check does reaches it (its socket is out of
every check's reach, its pid in no check's pid namespace, and the handler's work is fixed). Why
it gives the code nothing: the forked interpreter has the same user, groups, namespaces, limits
and capabilities (none) as the command's own process, and `CLIENT`, which waits beside it, is
not dumpable (the code can neither trace it nor take its connection). Anything it cannot make
sure of (an unknown namespace, a capability left, a different locale) the handler refuses
before anything runs, and `CLIENT` runs the command itself, as it would have without a zygote.
"""

from __future__ import annotations

from collections.abc import Sequence

ZYGOTE = r"""
import ctypes, gc, os, signal, socket, sys
def warm(server, name, preload):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: it goes with its server
    if os.getppid() != server:
        os._exit(0)
    for module in preload:
        try:
            __import__(module)
        except ImportError:
            pass  # a runner's version without it: one module less ready
    # What is imported stays shared with every fork: the collector never walks it (walking
    # would copy each page it touches into the fork).
    gc.freeze()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\0" + name)
    listener.listen(16)
    signal.signal(signal.SIGCHLD, reap)
    while True:
        conn, _ = listener.accept()
        if os.fork() == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            listener.close()
            return libc, conn
        conn.close()
def reap(*_):
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass
def refuse(conn, why):
    conn.sendall(b"refused " + why.encode() + b"\n")
    os._exit(0)
def receive(conn):
    head, fds, _, _ = socket.recv_fds(conn, 4, 9)
    if not head:
        os._exit(0)  # every command of the check is done
    if len(head) != 4 or len(fds) != 9:
        refuse(conn, "a request without its streams and namespaces")
    size, data = int.from_bytes(head, "big"), b""
    if size > 1 << 22:  # more than any argv and environment the kernel would pass
        refuse(conn, "a request too large")
    while len(data) < size:
        part = conn.recv(size - len(data))
        if not part:
            os._exit(0)
        data += part
    fields = data.decode("utf-8", "surrogateescape").split("\0")
    count = int(fields[0])
    env = dict(field.split("=", 1) for field in fields[2 + count:] if "=" in field)
    request = {"argv": fields[1:1 + count], "cwd": fields[1 + count], "env": env}
    for key in set(request["env"]) | set(os.environ):
        if key.startswith(("LANG", "LC_")) and request["env"].get(key) != os.environ.get(key):
            refuse(conn, "a locale the interpreter did not start with")
    return request, fds
def join(libc, conn, user, mnt, pid, ipc, uts, net):
    peer = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
    if peer[4:] != os.getuid().to_bytes(4, sys.byteorder) + os.getgid().to_bytes(4, sys.byteorder):
        refuse(conn, "a peer of another user")
    # The peer is ENTER's connection, now the `unshare` that made the check's namespaces and
    # waits for it: its user namespace made the mounts (and gVisor has no NS_GET_USERNS).
    try:
        owner = os.open(f"/proc/{int.from_bytes(peer[:4], sys.byteorder)}/ns/user", os.O_RDONLY)
        made = os.stat(f"/proc/{int.from_bytes(peer[:4], sys.byteorder)}/ns/mnt")
    except OSError as error:
        refuse(conn, f"no namespaces of the peer ({error.strerror})")
    if (made.st_dev, made.st_ino) != (os.fstat(mnt).st_dev, os.fstat(mnt).st_ino):
        refuse(conn, "namespaces the peer did not make")
    # CLONE_NEWUSER, NEWNS, NEWIPC, NEWUTS, NEWNET, NEWPID: the owner's user namespace gives
    # the rights to join the others; the code's own comes last and takes them back.
    for fd, kind in ((owner, 0x10000000), (mnt, 0x20000), (ipc, 0x08000000),
                     (uts, 0x04000000), (net, 0x40000000), (pid, 0x20000000),
                     (user, 0x10000000)):
        if libc.setns(fd, kind) != 0:
            refuse(conn, f"setns {kind:#x}: {os.strerror(ctypes.get_errno())}")
    os.close(owner)
    for cap in range(64):
        libc.prctl(24, cap)  # PR_CAPBSET_DROP (EINVAL past the last one)
    libc.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT_CLEAR_ALL
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    if libc.capset(header, (ctypes.c_uint32 * 6)()) != 0:
        refuse(conn, "capabilities could not be dropped")
    got = (ctypes.c_uint32 * 6)()
    if (libc.capget(header, got) != 0 or any(got)
            or any(libc.prctl(23, cap) == 1 for cap in range(64))  # PR_CAPBSET_READ
            or libc.prctl(39, 0, 0, 0, 0) != 1):  # PR_GET_NO_NEW_PRIVS
        refuse(conn, "a capability or a privilege left")
def handle(libc, conn):
    # One check's commands (a batch holds several), one at a time, all in its namespaces:
    # joined at the first, the same ones (by inode) asked for by each after it.
    joined = None
    while True:
        request, fds = receive(conn)
        inodes = [(os.fstat(fd).st_dev, os.fstat(fd).st_ino) for fd in fds[3:]]
        if joined is None:
            join(libc, conn, *fds[3:])
            joined = inodes
        elif inodes != joined:
            refuse(conn, "namespaces of another command")
        try:
            os.chdir(request["cwd"])
        except OSError as error:
            refuse(conn, f"no working directory ({error.strerror})")
        sys.stdout.flush()
        sys.stderr.flush()
        child = os.fork()
        if child == 0:
            break
        for fd in fds:
            os.close(fd)
        conn.sendall(b"ran\n")
        code = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
        conn.sendall(f"rc {code}\n".encode())  # a signal's as its negative number
    for target, fd in enumerate(fds[:3]):
        os.dup2(fd, target)
    conn.detach()
    os.closerange(3, 1 << 16)
    os.environ.clear()
    os.environ.update(request["env"])
    return request["argv"]
argv = handle(*warm(int(sys.argv[-1]), sys.argv[1], sys.argv[2:-1]))
del ctypes, gc, signal, socket, warm, reap, refuse, receive, join, handle
import time
time.tzset()
if "random" in sys.modules:
    sys.modules["random"].seed()
sys.argv, sys.orig_argv = ["-c", *argv[5:]], argv
main = type(sys)("__main__")
sys.modules["__main__"] = main
code = compile(argv[4], "<string>", "exec")
import linecache
if hasattr(linecache, "_register_code"):  # tracebacks quote the source, as for -c (3.13)
    linecache._register_code(code, argv[4], "<string>")
del linecache
def finish(status):
    # What the interpreter does on its way out, in its order (its threads joined, its exit
    # handlers, its streams flushed), less tearing its modules down: that would copy into
    # this fork every page it still shares with the warm interpreter.
    if "threading" in sys.modules:
        sys.modules["threading"]._shutdown()
    import atexit
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            status = status or 120
    os._exit(status)
try:
    exec(code, main.__dict__)
except SystemExit as end:
    if end.code is None or isinstance(end.code, int):
        finish(end.code or 0)
    print(end.code, file=sys.stderr)
    finish(1)
except BaseException as error:
    # Told as `python3 -c` tells it, without this frame.
    trace = error.__traceback__
    while trace is not None and trace.tb_frame.f_globals is not main.__dict__:
        trace = trace.tb_next
    sys.excepthook(type(error), error.with_traceback(trace), trace)
    finish(1)
finish(0)
"""
"""The zygote: `python3 -I -B -c ZYGOTE NAME MODULE... SERVER_PID`, started by a command server
(its stdin and outputs /dev/null) and gone with it."""

CLIENT = r"""
import _socket, os, sys
argv = sys.argv[1:]
def plain():
    os.closerange(3, 1 << 16)
    os.execvp(argv[0], argv)
def line():
    global got
    while b"\n" not in got:
        part = conn.recv(256)
        if not part:
            return b""
        got += part
    first, _, got = got.partition(b"\n")
    return first
try:
    # Not dumpable (PR_SET_DUMPABLE 0) before the code runs: the code is a process of the same
    # user in the same namespaces, which could otherwise take this one's connection to the
    # handler (pidfd_getfd), trace it or write its memory (/proc/<pid>/mem, which seccomp
    # cannot filter). Where it cannot be made so, the command runs as its own process.
    import ctypes
    if ctypes.CDLL(None).prctl(4, 0, 0, 0, 0) != 0:
        raise OSError("still dumpable")
    conn, got = _socket.socket(fileno=3), b""
    names = ("user", "mnt", "pid", "ipc", "uts", "net")
    fds = [0, 1, 2, *(os.open("/proc/self/ns/" + n, os.O_RDONLY) for n in names)]
    env = (key + "=" + value for key, value in os.environ.items())
    data = "\0".join([str(len(argv)), *argv, os.getcwd(), *env]).encode("utf-8", "surrogateescape")
    rights = b"".join(fd.to_bytes(4, sys.byteorder) for fd in fds)
    conn.sendmsg([len(data).to_bytes(4, "big")], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
    conn.sendall(data)
    ran = line()
except (OSError, ImportError):
    plain()
if ran != b"ran":
    plain()
end = line()
code = int(end[3:]) if end.startswith(b"rc ") else -9
if code < 0:  # killed by a signal: so is this, as the shell above tells it
    import signal
    try:
        signal.signal(-code, signal.SIG_DFL)
    except (OSError, ValueError):
        pass  # SIGKILL and SIGSTOP have no handler to reset
    os.kill(os.getpid(), -code)
sys.exit(code)
"""
"""Runs a `python3 -I -B -c` command in the check's namespaces: `python3 -I -S -c CLIENT
ARGV...`. With a zygote connected as fd 3 and willing, the zygote's fork runs it and this
exits with its status; otherwise (no fd 3, a refusal, no answer before anything ran) it runs
ARGV itself."""

SERVED = ("python3", "-I", "-B", "-c")
"""The commands a zygote runs: the interpreter as it started itself."""


def name(group: str) -> str:
    """The abstract socket name of the zygote that serves commands run with `group`."""
    return f"tdd-zygote-{group}"


def start(group: str, preload: Sequence[str]) -> list[str]:
    """The argv that starts a zygote for a server of `group` (which adds its own pid)."""
    return [*SERVED, ZYGOTE, name(group), *preload]


def served(command: Sequence[str], warm: str) -> list[str]:
    """`command` through `CLIENT` when a warm interpreter (named `warm`) would run it, else
    `command` as it is."""
    if not warm or tuple(command[: len(SERVED)]) != SERVED or len(command) <= len(SERVED):
        return list(command)
    return ["python3", "-I", "-S", "-c", CLIENT, *command]
