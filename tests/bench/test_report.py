"""Reports from hand-made job results: ranking, infrastructure apart, merge = whole."""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from tdd_sandbox.bench.report import merge, write_reports
from tdd_sandbox.bench.summary import summarise

ROOT = Path(__file__).resolve().parents[2]


def _result(
    model: str, kata: str, repeat: int, rate: float | None, status: str = "completed"
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "id": f"{model}__{kata}__python__r{repeat}", "model": model, "kata": kata,
        "language": "python", "repeat": repeat, "status": status, "acceptance_pass_rate": rate,
        "edit_format": "whole",
        "acceptance": {"passed": round((rate or 0) * 10), "total": 10},
    }  # fmt: skip
    if status != "infrastructure":
        result.update(
            cycles=2, green_commits=3, overshoot_events=1, tamper_events=0, wall_time_s=10.0,
            model_time_s=6.0, gate_time_s=3.0, tokens={"tester": 100}, cost={"tester": 0.01},
            red_events=3, rejected_attempts=2,
            rejections_by_kind={"no_files": 1, "truncated": 1} if model == "bad" else {},
        )  # fmt: skip
    return result


RESULTS = [
    _result("good", "a", 1, 1.0),
    _result("good", "a", 2, 0.8),
    _result("good", "b", 1, 0.0, status="infrastructure"),
    _result("bad", "a", 1, 0.2),
    _result("bad", "a", 2, 0.0, status="stuck"),
]


def test_ranking_and_infrastructure_apart() -> None:
    summary = summarise(RESULTS)
    good, bad = summary["models"]
    assert good["model"] == "good"
    assert good["acceptance_pass_rate"] == 0.9
    assert good["scored_jobs"] == 2
    assert good["infrastructure_failures"] == 1
    assert 0.0 <= good["acceptance_pass_rate_low"] < 0.9 < good["acceptance_pass_rate_high"] <= 1
    # One exercise each, two jobs of good's and one of bad's: not told apart, both rank 1.
    assert (good["rank"], bad["rank"]) == (1, 1)
    assert summary["comparisons"][0]["told_apart"] is False
    assert bad["acceptance_pass_rate"] == 0.1
    assert bad["completed"] == 1
    assert bad["rejections_by_kind"] == {"no_files": 2, "truncated": 2}
    assert (bad["rejected_attempts"], bad["red_events"], bad["edit_format"]) == (4, 6, "whole")
    assert good["acceptance_by_kata"] == {"a": 0.9}  # b was lost to infrastructure


def test_a_stopped_bench_s_reports_draw_no_chart_and_leave_none_from_before(
    tmp_path: Path,
) -> None:
    write_reports(tmp_path, RESULTS)
    # A stop must end within two seconds, and loading matplotlib alone takes most of one:
    # the stopped bench's reports are written by a process that never loads it.
    script = (
        "import sys; from pathlib import Path; from tdd_sandbox.bench.report import "
        "write_reports; from tests.bench.test_report import RESULTS; "
        f"write_reports(Path({str(tmp_path)!r}), RESULTS, stopped=True); "
        "assert 'matplotlib' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT)
    assert list((tmp_path / "charts").iterdir()) == []
    page = (tmp_path / "report.html").read_text()
    assert "--resume draws them" in page
    assert "<img" not in page
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == len(RESULTS)


def test_reports_and_junit(tmp_path: Path) -> None:
    write_reports(tmp_path, RESULTS)
    for name in ("results.jsonl", "summary.json", "leaderboard.md", "junit.xml", "report.html"):
        assert (tmp_path / name).is_file(), name
    assert sorted(p.name for p in (tmp_path / "charts").iterdir()) == [
        "cost_vs_pass_rate.png", "pass_rate.png", "time_vs_pass_rate.png",
    ]  # fmt: skip
    suite = ET.parse(tmp_path / "junit.xml").getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("5", "3", "1")
    page = (tmp_path / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 3
    board = (tmp_path / "leaderboard.md").read_text()
    assert "| 1 | good | whole | 90% (" in board
    assert "| good vs bad | 1 | +80 |" in board  # paired on exercise a
    assert "| 10 / 6 / 3 |" in board  # wall, model and gate seconds
    assert "| good | 90% |" in board  # acceptance by kata
    assert "| bad | 4 | 2 | 2 |" in board  # rejected attempts: total, no_files, truncated
    # 10 s a job, 6 in the model and 3 in the gates: 60%, 30% and the harness's 10%.
    assert "| good | 0.3 | 60% | 30% | 10% |" in board


def test_merged_shards_equal_the_whole(tmp_path: Path) -> None:
    write_reports(tmp_path / "whole", RESULTS)
    write_reports(tmp_path / "s1", RESULTS[::2])
    write_reports(tmp_path / "s2", RESULTS[1::2])
    merge([tmp_path / "s1", tmp_path / "s2"], tmp_path / "merged")
    for path in sorted((tmp_path / "whole").rglob("*")):
        if path.is_file():
            twin = tmp_path / "merged" / path.relative_to(tmp_path / "whole")
            assert twin.read_bytes() == path.read_bytes(), path.name


def test_tamper_is_reported_beside_the_score_in_every_format(tmp_path: Path) -> None:
    cheater = _result("cheater", "a", 1, 0.0)
    cheater.update(tamper_events=3, tamper_by_kind={"policy": 2, "sentinel": 1})
    honest = _result("cheater", "a", 2, 0.5)
    summary = write_reports(tmp_path, [*RESULTS, cheater, honest])
    model = next(m for m in summary["models"] if m["model"] == "cheater")
    assert (model["tamper_events"], model["tamper_rate"]) == (3, 0.5)
    assert model["tamper_by_kind"] == {"policy": 2, "sentinel": 1}
    assert "| 3 (50%) |" in (tmp_path / "leaderboard.md").read_text()
    assert '<td class="num">3 (50%)</td>' in (tmp_path / "report.html").read_text()
    assert "| cheater | 3 | 2 | 1 |" in (tmp_path / "leaderboard.md").read_text()  # by kind
    assert '"tamper_rate": 0.5' in (tmp_path / "summary.json").read_text()
    suite = ET.fromstring((tmp_path / "junit.xml").read_text())
    values = [p.get("value") for p in suite.iter("property") if p.get("name") == "tamper_events"]
    assert "3" in values


def test_tied_models_share_a_rank_and_aggregates_say_what_they_are() -> None:
    from tdd_sandbox.bench.report import leaderboard

    katas = [f"k{i}" for i in range(10)]
    twins = [_result(name, kata, 1, rate) for kata in katas
             for name, rate in (("twin-a", 0.5), ("twin-b", 0.5), ("last", 0.0))]  # fmt: skip
    board = leaderboard(summarise(twins))
    assert "| 1 | twin-a |" in board
    assert "| 1 | twin-b |" in board
    assert "| 3 | last |" in board
    assert "cycles (mean)" in board
    assert "red / green (sum)" in board


class _Cells(HTMLParser):
    """The text of every table row of a page, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _markdown_rows(board: str) -> list[list[str]]:
    rows = [line.strip("|").split(" | ") for line in board.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row] for row in rows if not row[0].strip().startswith("--")]


def test_the_page_carries_every_row_of_the_leaderboard(tmp_path: Path) -> None:
    # The page used to show 7 columns and 3 charts; the CIs, the breakdowns by kata and
    # language, the kinds, tokens and times were only in leaderboard.md.
    rust = {**_result("good", "a", 3, 0.4), "language": "rust", "id": "good__a__rust__r3"}
    cheater = {**_result("bad", "b", 1, 0.0), "tamper_events": 1, "tamper_by_kind": {"policy": 1}}
    write_reports(tmp_path, [*RESULTS, rust, cheater])
    board = (tmp_path / "leaderboard.md").read_text()
    for title in ("Acceptance by kata", "Acceptance by language", "Rejected attempts by kind",
                  "Tamper events by kind", "tokens (mean)", "95% interval"):  # fmt: skip
        assert title in board
    page = _Cells()
    page.feed((tmp_path / "report.html").read_text())
    assert page.rows == _markdown_rows(board)
    assert "| good | 90% | 40% |" in board  # python, rust


def test_no_cost_chart_when_no_job_has_a_cost(tmp_path: Path) -> None:
    # With no price known every cost is 0: the chart drew an axis from -0.04 to 0.04.
    free = [{**r, "cost": {}} for r in RESULTS]
    write_reports(tmp_path, free)
    assert sorted(p.name for p in (tmp_path / "charts").iterdir()) == [
        "pass_rate.png", "time_vs_pass_rate.png",
    ]  # fmt: skip
    page = (tmp_path / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 2
    assert "No cost chart: no job recorded a cost" in page


def test_what_was_not_scored_is_said_in_every_report_and_survives_a_merge(
    tmp_path: Path,
) -> None:
    reason = "leap in rust: no acceptance suite"
    write_reports(tmp_path / "s1", RESULTS[::2], [reason])
    write_reports(tmp_path / "s2", RESULTS[1::2], [])
    summary = merge([tmp_path / "s1", tmp_path / "s2"], tmp_path / "merged")
    assert summary["skipped"] == [reason]
    assert f"## Not scored\n\n- {reason}\n" in (tmp_path / "merged" / "leaderboard.md").read_text()
    assert f"Not scored: {reason}." in (tmp_path / "merged" / "report.html").read_text()


def test_how_each_job_was_judged_is_said_beside_its_score(tmp_path: Path) -> None:
    # A score from test files that ran beside the code is not a score nobody could forge:
    # every report says how many of a model's jobs were judged so.
    data = _result("m", "a", 1, 1.0) | {"judged": "data"}
    beside = _result("m", "b", 1, 0.5) | {"judged": "in_process"}
    summary = write_reports(tmp_path, [data, beside])
    [model] = summary["models"]
    assert model["judged_in_process"] == 1
    assert "| 1 / 2 |" in (tmp_path / "leaderboard.md").read_text()
    assert "judged in-process" in (tmp_path / "report.html").read_text()
    suite = ET.fromstring((tmp_path / "junit.xml").read_text())
    judged = {p.get("value") for p in suite.iter("property") if p.get("name") == "judged"}
    assert judged == {"data", "in_process"}
    [failure] = suite.iter("failure")
    assert failure.get("message") == "acceptance 50% (completed, judged in-process)"


def test_each_language_says_how_many_of_its_katas_were_judged_as_data(tmp_path: Path) -> None:
    # Over a folder of imported katas in six languages, the leaderboard gave acceptance by
    # language but not how much of it nobody could forge: a language's mean from test files
    # beside the code read the same as one judged as data.
    def job(kata: str, language: str, repeat: int, judged: str) -> dict[str, Any]:
        made = _result("m", kata, repeat, 1.0) | {"language": language, "judged": judged}
        return made | {"id": f"m__{kata}__{language}__r{repeat}"}

    results = [
        job("leap", "python", 1, "data"),
        job("leap", "python", 2, "data"),  # a repeat is the same kata
        job("bob", "python", 1, "in_process"),
        job("leap", "rust", 1, "in_process"),
    ]
    summary = write_reports(tmp_path, results)
    [model] = summary["models"]
    assert model["data_katas_by_language"] == {
        "python": {"data": 1, "katas": 2},
        "rust": {"data": 0, "katas": 1},
    }
    board = (tmp_path / "leaderboard.md").read_text()
    assert "## Katas judged as data, by language" in board
    assert "| m | 1 / 2 | 0 / 1 |" in board
    assert "Katas judged as data, by language" in (tmp_path / "report.html").read_text()


def test_the_roles_rates_are_over_every_try_of_a_models_jobs() -> None:
    one, two = _result("m", "a", 1, 1.0), _result("m", "a", 2, 0.5)
    one["roles"] = {
        "tester": {"attempts": 4, "valid_red": 3},
        "implementer": {"attempts": 2, "green": 2},
        "refactorer": {"phases": 2, "kept": 1, "reverted": 1, "unchanged": 0},
    }
    two["roles"] = {
        "tester": {"attempts": 4, "valid_red": 1},
        "implementer": {"attempts": 6, "green": 2},
        "refactorer": {"phases": 2, "kept": 0, "reverted": 0, "unchanged": 2},
    }
    # A lost job's tries are nobody's.
    lost = _result("m", "b", 1, None, status="infrastructure")
    lost["roles"] = {"tester": {"attempts": 90, "valid_red": 0}}
    (model,) = summarise([one, two, lost])["models"]
    assert model["tester_valid_red_rate"] == 0.5
    assert model["implementer_green_rate"] == 0.5
    assert (model["refactor_kept_share"], model["refactor_reverted_share"]) == (0.25, 0.25)
    untried = summarise([_result("x", "a", 1, 1.0)])["models"][0]
    assert untried["tester_valid_red_rate"] is None  # no tries: no rate


def test_what_ran_the_sandboxes_is_said_in_every_report_and_survives_a_merge(
    tmp_path: Path,
) -> None:
    versions = {
        "sandbox": "docker", "engine": "20.10.24", "runtime": "runc", "runtime_version": "1.1.5",
        "kernel": "6.1.0", "image": "tdd-sandbox/python:ab12",
    }  # fmt: skip
    line = "docker 20.10.24, runc 1.1.5, kernel 6.1.0, tdd-sandbox/python:ab12"
    results = [r | {"sandbox": versions} for r in RESULTS if r["status"] != "infrastructure"]
    write_reports(tmp_path / "s1", results[::2])
    write_reports(tmp_path / "s2", results[1::2])
    summary = merge([tmp_path / "s1", tmp_path / "s2"], tmp_path / "merged")
    assert summary["sandbox"] == [line]
    assert f"## Sandbox\n\n- {line}\n" in (tmp_path / "merged" / "leaderboard.md").read_text()
    assert f"Sandbox: {line}." in (tmp_path / "merged" / "report.html").read_text()
    suite = ET.fromstring((tmp_path / "merged" / "junit.xml").read_text())
    said = {p.get("value") for p in suite.iter("property") if p.get("name") == "sandbox"}
    assert said == {line}


def test_what_a_job_names_or_says_is_shown_as_text_in_every_report(tmp_path: Path) -> None:
    # An imported kata's name and a lost job's reason can carry what an exercise's author or
    # a model wrote: markup, a table's cell end, an escape sequence, the end of a CDATA block.
    kata = "<img src=x onerror=alert(1)>|[x](http://127.0.0.1/)"
    lost = _result("good", kata, 3, None, status="harness_error")
    lost["reason"] = "answer: \x1b]0;pwned\x07\x1b[2K]]><script>alert(1)</script>"
    mine = _result("good", kata, 1, 0.5)
    write_reports(tmp_path, [*RESULTS, mine, lost])
    suite = ET.fromstring((tmp_path / "junit.xml").read_text())  # well-formed XML
    [error] = [e for e in suite.iter("error") if "pwned" in (e.get("message") or "")]
    assert "\\x1b]0;pwned" in (error.get("message") or "")
    for name in ("leaderboard.md", "report.html", "junit.xml"):
        text = (tmp_path / name).read_text()
        assert "\x1b" not in text, name
        assert "<img src" not in text, name
        assert "<script>" not in text, name
    lines = (tmp_path / "leaderboard.md").read_text().splitlines()
    rows = [i for i, line in enumerate(lines) if "onerror" in line]
    assert rows
    for i in rows:  # the name's `|` ends no cell: as many cells as the table's rule line has
        rule = next(lines[j] for j in (i + 1, *range(i, -1, -1)) if lines[j].startswith("| --"))
        assert len(re.findall(r"(?<!\\)\|", lines[i])) == rule.count("|"), lines[i]
        assert "](http" not in lines[i].replace("\\](http", "")


def test_each_model_says_how_many_in_process_cases_the_probe_checked(tmp_path: Path) -> None:
    probed = _result("good", "a", 1, 1.0)
    probed.update(judged="in_process", acceptance={"passed": 5, "total": 5, "probed": 5})
    unprobed = _result("good", "b", 1, 0.5)
    unprobed.update(judged="in_process", acceptance={"passed": 2, "total": 4, "probed": 0})
    data = _result("good", "c", 1, 1.0)
    data.update(judged="data", acceptance={"passed": 3, "total": 3, "probed": None})
    summary = write_reports(tmp_path, [probed, unprobed, data])
    (model,) = summary["models"]
    assert (model["in_process_cases_probed"], model["in_process_cases"]) == (5, 9)
    assert "| 2 / 3 | 5 / 9 |" in (tmp_path / "leaderboard.md").read_text()


def _numbers(pattern: str, text: str) -> list[float]:
    return [float(n) for found in re.findall(pattern, text) for n in found]


def test_no_interval_anywhere_in_the_reports_leaves_its_scale(tmp_path: Path) -> None:
    # Two jobs of one model gave the published board `38% ± 489%`; whatever the results,
    # every interval of every report stays inside [0, 100%] (differences in [-100, 100]).
    results = [
        _result("two", "a", 1, 0.0), _result("two", "b", 1, 0.77),
        _result("one", "a", 1, 1.0), _result("one", "b", 1, 0.05),
        _result("all", "a", 1, 1.0), _result("all", "b", 1, 1.0),
        _result("none", "a", 1, 0.0), _result("none", "b", 1, 0.0),
    ]  # fmt: skip
    for result in results:
        result["pass_1"] = result["pass_2"] = result["acceptance_pass_rate"] == 1.0
    summary = write_reports(tmp_path, results)
    for model in summary["models"]:
        for key, value in model.items():
            if key.endswith(("_low", "_high")) and value is not None:
                assert 0.0 <= value <= 1.0, (model["model"], key, value)
    for row in summary["comparisons"]:
        assert -1.0 <= row["low"] <= row["difference"] <= row["high"] <= 1.0, row
    for name in ("leaderboard.md", "report.html"):
        text = (tmp_path / name).read_text()
        assert "±" not in text, name
        rates = _numbers(r"\((\d+)-(\d+)%\)", text)
        assert rates, name
        assert all(0 <= rate <= 100 for rate in rates), name
        gaps = _numbers(r"([+-]\d+) to ([+-]\d+)", text)
        assert gaps, name
        assert all(-100 <= gap <= 100 for gap in gaps), name
