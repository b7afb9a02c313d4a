"""The system-call allowlist of a container whose checks run in fresh namespaces under runc.

The engine's default profile lets `unshare` and the mount calls through only to a container
holding CAP_SYS_ADMIN, which ours never holds. A check in fresh namespaces needs exactly these
beyond what ordinary code needs:

- `unshare`: new user, mount, pid, IPC, UTS and network namespaces for each command;
- `mount`, `umount2` and the newer mount calls (`fsopen`, `fsconfig`, `fsmount`,
  `move_mount`, `open_tree`, `mount_setattr`, which util-linux's `mount` tries first): the
  command's own `/proc`, `/dev/shm` and the masks over `/sys` and `/proc`'s host files;
- `setns`: a warm interpreter's fork (`zygote.py`) joins a command's namespaces; it needs the
  capabilities that only the user namespace's owner outside it holds, and the code has none.

They take effect only inside a user namespace the command made, with capabilities there
alone; before the code runs, the command drops every one of them (`setpriv`) and lowers its
namespace's limit of user namespaces to zero, so the code itself can call them and get
nothing but an error. Under gVisor none of this is needed: its kernel makes namespaces
without the host's (runsc applies no OCI profile of its own by default).

Everything else is an allowlist: an unknown call fails with EPERM. Left out, as the engine's
default leaves them out: kernel modules, kexec, `bpf`, `perf_event_open`, keyrings,
`userfaultfd`, clock setting, swap, reboot, quotas, handles to files by id, NUMA policy,
`pivot_root`, `chroot`; and `io_uring`, a large attack surface that no runner needs.
"""

from __future__ import annotations

import json
from typing import Any

_FILES = """
read write open openat openat2 close close_range creat lseek llseek pread64 pwrite64 readv
writev preadv pwritev preadv2 pwritev2 sendfile splice tee vmsplice copy_file_range
stat fstat lstat newfstatat statx statfs fstatfs access faccessat faccessat2 truncate
ftruncate fallocate fadvise64 readahead fsync fdatasync sync syncfs sync_file_range
getdents getdents64 getcwd chdir fchdir rename renameat renameat2 mkdir mkdirat rmdir
link linkat unlink unlinkat symlink symlinkat readlink readlinkat chmod fchmod fchmodat
fchmodat2 chown fchown lchown fchownat umask utime utimes utimensat futimesat mknod mknodat
setxattr lsetxattr fsetxattr getxattr lgetxattr fgetxattr listxattr llistxattr flistxattr
removexattr lremovexattr fremovexattr flock fcntl dup dup2 dup3 pipe pipe2 ioctl
inotify_init inotify_init1 inotify_add_watch inotify_rm_watch memfd_create
"""

_MEMORY = """
mmap munmap mprotect mremap msync mincore madvise brk mlock mlock2 munlock mlockall
munlockall remap_file_pages membarrier pkey_mprotect pkey_alloc pkey_free
process_madvise map_shadow_stack mseal
"""

_PROCESSES = """
clone fork vfork execve execveat exit exit_group wait4 waitid kill tkill tgkill
rt_sigaction rt_sigprocmask rt_sigreturn rt_sigpending rt_sigtimedwait rt_sigqueueinfo
rt_tgsigqueueinfo rt_sigsuspend sigaltstack pause restart_syscall signalfd signalfd4
getpid getppid gettid getpgid setpgid getpgrp getsid setsid getuid geteuid getgid getegid
getresuid getresgid setuid setgid setreuid setregid setresuid setresgid setfsuid setfsgid
getgroups setgroups capget capset prctl arch_prctl set_tid_address set_robust_list
get_robust_list set_thread_area get_thread_area rseq seccomp ptrace process_vm_readv
process_vm_writev pidfd_open pidfd_send_signal pidfd_getfd getrlimit setrlimit prlimit64
getrusage times getpriority setpriority ioprio_get ioprio_set sched_yield sched_setparam
sched_getparam sched_setscheduler sched_getscheduler sched_get_priority_max
sched_get_priority_min sched_rr_get_interval sched_setaffinity sched_getaffinity
sched_setattr sched_getattr getcpu futex futex_waitv futex_wake futex_wait futex_requeue
uname sethostname setdomainname sysinfo getrandom
"""

_TIME = """
nanosleep clock_nanosleep clock_gettime clock_getres gettimeofday time alarm getitimer
setitimer timer_create timer_settime timer_gettime timer_getoverrun timer_delete
timerfd_create timerfd_settime timerfd_gettime
"""

_EVENTS = """
poll ppoll select pselect6 epoll_create epoll_create1 epoll_ctl epoll_wait epoll_pwait
epoll_pwait2 eventfd eventfd2 io_setup io_destroy io_getevents io_pgetevents io_submit
io_cancel
"""

_SOCKETS_AND_IPC = """
socket socketpair connect accept accept4 bind listen shutdown getsockname getpeername
setsockopt getsockopt sendto recvfrom sendmsg recvmsg sendmmsg recvmmsg
shmget shmat shmdt shmctl semget semop semtimedop semctl msgget msgsnd msgrcv msgctl
mq_open mq_unlink mq_timedsend mq_timedreceive mq_notify mq_getsetattr
"""

NAMESPACES = """
unshare mount umount2 fsopen fsconfig fsmount move_mount open_tree mount_setattr setns
"""
"""The calls beyond the ordinary that a command needs to make its fresh namespaces (and a
warm interpreter's fork to join them)."""

_PERSONALITIES = (0x0, 0x8, 0x20000, 0xFFFFFFFF)
"""`personality` values a runtime asks for (Linux, its 32-bit view, querying): no others."""

_CLONE_NAMESPACES = 0x7E020000
"""`clone` flags for new namespaces: `unshare` makes them, a clone may not."""

_ENOSYS = 38
_MASKED = "SCMP_CMP_MASKED_EQ"


def allowed_calls() -> list[str]:
    """Every call the profile lets through, sorted."""
    groups = (_FILES, _MEMORY, _PROCESSES, _TIME, _EVENTS, _SOCKETS_AND_IPC, NAMESPACES)
    names = {name for group in groups for name in group.split()}
    names.discard("clone")  # allowed below, with its namespace flags masked
    return sorted(names)


def profile() -> dict[str, Any]:
    """The profile, as the engine takes it (`security_opt: seccomp=<json>`)."""
    return {
        "defaultAction": "SCMP_ACT_ERRNO",
        "defaultErrnoRet": 1,
        "archMap": [
            {"architecture": "SCMP_ARCH_X86_64", "subArchitectures": ["SCMP_ARCH_X86"]},
            {"architecture": "SCMP_ARCH_AARCH64", "subArchitectures": ["SCMP_ARCH_ARM"]},
        ],
        "syscalls": [
            {"names": allowed_calls(), "action": "SCMP_ACT_ALLOW"},
            {
                "names": ["clone"],
                "action": "SCMP_ACT_ALLOW",
                "args": [{"index": 0, "value": _CLONE_NAMESPACES, "valueTwo": 0, "op": _MASKED}],
            },
            # glibc falls back to clone when clone3 is missing; clone3's flags live in
            # memory a filter cannot read, so it could not be masked as clone is.
            {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": _ENOSYS},
            *(
                {
                    "names": ["personality"],
                    "action": "SCMP_ACT_ALLOW",
                    "args": [{"index": 0, "value": value, "op": "SCMP_CMP_EQ"}],
                }
                for value in _PERSONALITIES
            ),
        ],
    }


def security_option() -> str:
    """The profile as one `security_opt` entry."""
    return "seccomp=" + json.dumps(profile(), separators=(",", ":"))


NO_USER_NAMESPACES = r"""
my ($nonce, $refused) = splice(@ARGV, 0, 2);
my ($exe, $elf);
open($exe, "<", "/proc/self/exe") && read($exe, $elf, 20) == 20 or die "${refused}no ELF header\n";
my $machine = unpack("v", substr($elf, 18, 2));
my ($arch, $seccomp, $unshare, $clone) = $machine == 62 ? (0xC000003E, 317, 272, 56)
  : $machine == 183 ? (0xC00000B7, 277, 97, 220) : die "${refused}no filter for $machine\n";
sub op { pack("S C C L", @_) }
my ($allow, $eperm, $enosys) = (0x7FFF0000, 0x00050001, 0x00050026);
my @filter = (
  op(0x20, 0, 0, 4), op(0x15, 1, 0, $arch), op(0x06, 0, 0, $eperm),
  op(0x20, 0, 0, 0), op(0x35, 0, 1, 0x40000000), op(0x06, 0, 0, $eperm),
  op(0x15, 0, 1, 435), op(0x06, 0, 0, $enosys),
  op(0x15, 1, 0, $unshare), op(0x15, 0, 3, $clone),
  op(0x20, 0, 0, 16), op(0x45, 0, 1, 0x10000000), op(0x06, 0, 0, $eperm),
  op(0x06, 0, 0, $allow),
);
my $program = join("", @filter);
syscall($seccomp, 1, 0, pack("S x6 P", scalar(@filter), $program)) == 0
  or die "${refused}seccomp: $!\n";
syswrite STDERR, "\n\@\@$nonce ns ready\n";
exec { $ARGV[0] } @ARGV or die "$ARGV[0]: $!\n";
"""
"""Plain Perl (`perl-base` is in every Debian image) that installs a filter refusing every
new user namespace (`unshare` or `clone` with CLONE_NEWUSER: EPERM; `clone3`, whose flags a
filter cannot read: ENOSYS, and glibc falls back to `clone`), then runs its arguments. Under
gVisor, whose kernel lets a process remount what its parent namespace mounted once it is root
in a namespace of its own (it does not lock mounts), the code gets no such namespace: the
check's read-only copy of the snapshot stays read-only (`mounts.py`). The instructions: the
architecture (else EPERM), the x32 numbers (EPERM), `clone3`, then the flags of `unshare` and
`clone`. Its first two arguments are the nonce of the ready line it prints once the filter
holds (`namespaces.SETUP`) and the prefix of a refusal. Under runc the namespace limit of
zero does the same."""
