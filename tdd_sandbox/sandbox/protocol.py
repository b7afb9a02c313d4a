"""The command server's program and the requests it reads (`server.CommandServer` drives it).

A warm container's commands are requests on one long exec's stdin (see `server.py` for why),
read by a Perl loop: `perl-base` is in every Debian image, and plain Perl starts in a few
milliseconds where its modules cost twenty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
  my ($key, $argc, $envc, $size, $nest) = $head =~ /\A(\w+) (\d+) (\d+) (\d+)( nest)?\n\z/
    or POSIX::_exit(2);
  POSIX::_exit(0) if $argc == 0;  # leave: a nested server ends (its parent says so)
  my @argv = map { field() } 1 .. $argc;
  my %env = map { split /=/, field(), 2 } 1 .. $envc;
  my $input = take($size);
  pipe(my $r, my $w) or POSIX::_exit(3);
  my $pid = fork;
  POSIX::_exit(3) unless defined $pid;
  if ($pid == 0) {
    # A nested server reads the requests after this one from this server's own stdin.
    close $w; $nest or open(STDIN, '<&', $r) or POSIX::_exit(126); close $r;
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
  # A nested server that did not leave (killed, or never started) ends this one too: the
  # requests meant for it must not run here, outside its namespaces.
  POSIX::_exit(0) if $nest && $rc != 0;
}
"""
"""The server, given a nonce for its ready line and, for a warm interpreter, its argv (the
server's pid goes after it). A request is a head line (`key argc envc
size`), then each argument and each `NAME=value` as a line with its length and its bytes, then
`size` bytes of the command's stdin. A head line that ends in ` nest` runs its command on the
server's own streams: a second server (`server.CommandServer.nest`), which takes the requests until
one with no argument (`key 0 0 0`) makes it leave."""


def request_bytes(
    key: str, argv: Sequence[str], env: Mapping[str, str], stdin: bytes, *, nest: bool = False
) -> bytes:
    """A request as `SERVER` reads it (see there)."""
    fields = [*argv, *(f"{name}={value}" for name, value in env.items())]
    head = f"{key} {len(argv)} {len(env)} {len(stdin)}{' nest' if nest else ''}\n"
    request = bytearray(head.encode())
    for item in fields:
        data = item.encode()
        request += f"{len(data)}\n".encode() + data
    return bytes(request + stdin)
