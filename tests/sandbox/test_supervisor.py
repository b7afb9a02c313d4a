from __future__ import annotations

from tdd_sandbox.sandbox.supervisor import extract, wrap


def test_wrap_passes_the_command_as_arguments_not_shell_text() -> None:
    argv = wrap("n1", ["echo", "$(rm -rf /)"])
    assert argv[-2:] == ["echo", "$(rm -rf /)"]
    assert argv[:2] == ["sh", "-c"]


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
