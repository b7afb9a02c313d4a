from __future__ import annotations

from tdd_sandbox.sandbox.namespaces import oom_kills
from tdd_sandbox.sandbox.supervisor import extract, split_batch, wrap, wrap_batch


def test_wrap_passes_the_command_as_arguments_not_shell_text() -> None:
    argv = wrap("n1", ["echo", "$(rm -rf /)"])
    assert argv[-2:] == ["echo", "$(rm -rf /)"]
    assert argv[:2] == ["sh", "-c"]


def test_the_supervisor_and_a_shell_script_command_run_in_the_shell_given() -> None:
    guarded = "/tmp/.tdd/sh"
    script = ["sh", "-c", 'exec "$1"', "guard", "sh"]
    assert wrap("n1", script, shell=guarded)[0] == guarded
    assert wrap("n1", script, shell=guarded)[-5:] == [guarded, *script[1:]]
    assert wrap("n1", ["python3", "sh"], shell=guarded)[-2:] == ["python3", "sh"]
    batch = wrap_batch("n1", [script, ["shx", "-c", "x"]], shell=guarded)
    assert batch[0] == guarded
    assert batch[-2:] == [f"{guarded} -c 'exec \"$1\"' guard sh", "shx -c x"]


def test_extract_splits_report_from_stderr() -> None:
    stderr = "boom\n\n@@n1 leftover sleep 100\n\n@@n1 rc=3 oom=1\n"
    cleaned, report = extract(stderr, "n1")
    assert cleaned == "boom\n"
    assert report is not None
    assert (report.exit_code, report.oom_kills, report.leftovers) == (3, 1, ("sleep 100",))


def test_extract_ignores_other_nonces_and_detects_a_missing_report() -> None:
    cleaned, report = extract("@@forged rc=0 oom=0\n", "n1")
    assert report is None
    assert "forged" in cleaned


def test_extract_decodes_a_collected_file_and_refuses_a_cut_one() -> None:
    stderr = "\n@@n1 file aGVsbG8= end\n@@n1 rc=0 oom=0\n"
    _, report = extract(stderr, "n1")
    assert report is not None
    assert report.collected == b"hello"
    _, cut = extract("\n@@n1 file aGVs\n[... 9 bytes cut ...]\nbG8=\n@@n1 rc=0 oom=0\n", "n1")
    assert cut is not None
    assert cut.collected is None


def _batch(parts: list[tuple[str, str, int]], nonce: str = "n1") -> tuple[str, str]:
    """The streams a batch of `parts` (stdout, stderr, exit status) would print."""
    out, err = "", ""
    for i, (stdout, stderr, code) in enumerate(parts):
        out += f"\n@@{nonce} begin {i}\n{stdout}"
        err += f"\n@@{nonce} begin {i}\n{stderr}\n@@{nonce}.{i} rc={code} oom=0 cs=12\n"
    return out, err + f"\n@@{nonce} done\n"


def test_wrap_batch_hands_each_command_over_quoted() -> None:
    argv = wrap_batch("n1", [["echo", "$(rm -rf /)"], ["true"]])
    assert argv[:2] == ["sh", "-c"]
    assert argv[-2:] == ["echo '$(rm -rf /)'", "true"]


def test_split_batch_gives_each_command_its_output_and_report() -> None:
    out, err = _batch([("a\n", "x\n", 0), ("b\n", "", 3)])
    parts = split_batch(out, err, "n1", 2)
    assert parts is not None
    assert [(p.stdout, p.stderr, p.report.exit_code) for p in parts] == [
        ("a\n", "x\n", 0),
        ("b\n", "", 3),
    ]
    assert parts[0].report.seconds == 0.12


def test_split_batch_takes_the_supervisor_s_lines_over_a_command_s_forgeries() -> None:
    # The first command forges the second's start, report and the batch's end; the
    # supervisor's own lines come after it, and win.
    forged = "\n@@n1 begin 1\n\n@@n1.1 rc=0 oom=0 cs=1\n\n@@n1 done\n"
    out, err = _batch([(forged, forged, 0), ("", "", 1)])
    parts = split_batch(out, err, "n1", 2)
    assert parts is not None
    assert parts[1].report.exit_code == 1


def test_split_batch_refuses_a_batch_whose_supervisor_never_finished() -> None:
    out, err = _batch([("", "", 0), ("", "", 1)])
    assert split_batch(out, err.replace("\n@@n1 done\n", ""), "n1", 2) is None
    # The first command forges the second's report and the end; the second kills the
    # supervisor, so the forgeries are the last of their kind but come before "begin 1".
    forged = "\n@@n1.1 rc=0 oom=0\n\n@@n1 done\n"
    out = "\n@@n1 begin 0\n\n@@n1 begin 1\n"
    err = f"\n@@n1 begin 0\n{forged}\n@@n1.0 rc=0 oom=0\n\n@@n1 begin 1\n"
    assert split_batch(out, err, "n1", 2) is None
    # A report missing, or lines out of order.
    out, err = _batch([("", "", 0), ("", "", 1)])
    assert split_batch(out, err.replace("@@n1.1 rc=1", "@@n1.1 rx=1"), "n1", 2) is None
    assert split_batch(out + "\n@@n1 begin 0\n", err, "n1", 2) is None


def test_the_namespaces_count_of_oom_kills_is_their_last_line() -> None:
    forged = "\n@@n1 ns oom=0\n"  # printed by the command, before the real one
    assert oom_kills(f"out{forged}more\n@@n1 ns oom=2\n", "n1") == 2
    assert oom_kills("no line at all\n", "n1") == 0
    assert oom_kills("\n@@other ns oom=3\n", "n1") == 0
