from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from tdd_sandbox.bench.jobs import Job, find_katas, parse_shard, plan_jobs, resolve_models, shard
from tdd_sandbox.bench.metrics import mean_ci
from tdd_sandbox.bench.runner import job_settings
from tdd_sandbox.errors import UsageError
from tdd_sandbox.settings import BenchSettings, load_settings

KATAS = Path(__file__).resolve().parents[2] / "katas"


def test_models_from_strings_and_entries() -> None:
    bench = BenchSettings(
        models={
            "small": "ollama:qwen2.5-coder",
            "mixed": {"all": "openai:a", "implementer": "deepseek:b"},
        }
    )
    plain, small, mixed = resolve_models(["openai:gpt-4.1-mini", "small", "mixed"], bench)
    assert plain.model_for("tester") == "openai:gpt-4.1-mini"
    assert small.model_for("refactorer") == "ollama:qwen2.5-coder"
    assert mixed.model_for("tester") == "openai:a"
    assert mixed.model_for("implementer") == "deepseek:b"
    with pytest.raises(UsageError, match=r"neither provider:model nor a bench\.models entry"):
        resolve_models(["nonsense"], bench)


def test_jobs_are_every_combination_sorted_and_shards_partition_them() -> None:
    models = resolve_models(["openai:a", "openai:b"], BenchSettings())
    jobs, skipped = plan_jobs(models, find_katas(KATAS), ["python", "rust"], 3)
    assert skipped == []
    assert len(jobs) == 2 * 4 * 2 * 3
    assert [job.id for job in jobs] == sorted(job.id for job in jobs)
    assert len({job.id for job in jobs}) == len(jobs)
    parts = [shard(jobs, index, 3) for index in (1, 2, 3)]
    assert sorted(job.id for part in parts for job in part) == [job.id for job in jobs]
    assert shard(jobs, 2, 3) == shard(list(jobs), 2, 3)  # deterministic


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0"])
def test_bad_shards(text: str) -> None:
    with pytest.raises(UsageError, match="--shard"):
        parse_shard(text)


def test_katas_must_exist_and_have_suites(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no kata found"):
        find_katas(tmp_path)
    picked = find_katas(KATAS / "fizzbuzz", KATAS / "bowling", KATAS, KATAS / "fizzbuzz")
    assert [kata.name for kata in picked[:2]] == ["fizzbuzz", "bowling"]
    assert len(picked) == len(find_katas(KATAS))
    (tmp_path / "other" / "fizzbuzz").mkdir(parents=True)
    (tmp_path / "other" / "fizzbuzz" / "kata.md").write_text("# F\n")
    with pytest.raises(UsageError, match="two katas named 'fizzbuzz'"):
        find_katas(KATAS, tmp_path / "other")
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "kata.md").write_text("# K\n")
    with pytest.raises(UsageError, match=r"no kata in .* has an acceptance suite for python"):
        plan_jobs(
            resolve_models(["openai:a"], BenchSettings()), find_katas(tmp_path), ["python"], 1
        )


def test_a_kata_without_a_suite_in_one_language_is_skipped_there_not_refused(
    tmp_path: Path,
) -> None:
    # A folder where one kata has only a Python suite used to refuse `--languages python,rust`.
    shutil.copytree(KATAS / "fizzbuzz", tmp_path / "fizzbuzz")
    calls = tmp_path / "fizzbuzz" / "acceptance" / "calls.yaml"
    document = yaml.safe_load(calls.read_text())
    del document["rust"]
    calls.write_text(yaml.safe_dump(document))
    shutil.copytree(KATAS / "roman-numerals", tmp_path / "roman-numerals")
    models = resolve_models(["openai:a"], BenchSettings())
    jobs, skipped = plan_jobs(models, find_katas(tmp_path), ["python", "rust"], 1)
    assert sorted((job.kata.name, job.language) for job in jobs) == [
        ("fizzbuzz", "python"), ("roman-numerals", "python"), ("roman-numerals", "rust"),
    ]  # fmt: skip
    assert skipped == ["fizzbuzz in rust: no acceptance suite"]


def test_mean_and_confidence_interval() -> None:
    assert mean_ci([]) == (None, None)
    assert mean_ci([0.5]) == (0.5, None)
    mean, half = mean_ci([0.0, 1.0])
    assert mean == 0.5
    assert half == pytest.approx(12.706 * 0.7071067811865476 / 1.4142135623730951)


def test_an_entry_can_pin_an_edit_format() -> None:
    bench = BenchSettings(models={"qwen-whole": {"all": "custom:qwen", "edit_format": "whole"}})
    [entry] = resolve_models(["qwen-whole"], bench)
    assert entry.edit_format == "whole"
    assert entry.model_for("implementer") == "custom:qwen"
    settings = job_settings(load_settings(), Job(entry, KATAS / "fizzbuzz", "python", 1))
    assert settings.roles.tester.edit_format == "whole"
    assert settings.roles.refactorer.model == "custom:qwen"
    with pytest.raises(ValueError, match="unknown edit_format"):
        BenchSettings(models={"x": {"all": "custom:q", "edit_format": "yaml"}})


def test_an_entry_can_name_its_own_endpoint() -> None:
    # Two local servers, one per model, in one bench: each entry carries its base URL.
    bench = BenchSettings(
        models={
            "qwen": {"all": "custom:qwen", "base_url": "http://127.0.0.1:8088/v1"},
            "smol": {"all": "custom:smol", "base_url": "http://127.0.0.1:8089/v1",
                     "api_key_env": "SMOL_KEY"},
        }
    )  # fmt: skip
    qwen, smol = resolve_models(["qwen", "smol"], bench)
    assert qwen.edit_format is None
    base = load_settings(overrides={"llm": {"base_url": "http://elsewhere/v1"}})
    for entry, url in ((qwen, "http://127.0.0.1:8088/v1"), (smol, "http://127.0.0.1:8089/v1")):
        settings = job_settings(base, Job(entry, KATAS / "fizzbuzz", "python", 1))
        assert {settings.roles.tester.base_url, settings.roles.refactorer.base_url} == {url}
    assert settings.roles.implementer.api_key_env == "SMOL_KEY"
    with pytest.raises(ValueError, match=r"unknown keys \['temprature'\]"):
        BenchSettings(models={"x": {"all": "custom:q", "temprature": "0.1"}})


def test_require_data_leaves_out_katas_judged_by_test_files_beside_the_code(
    tmp_path: Path,
) -> None:
    shutil.copytree(KATAS / "fizzbuzz", tmp_path / "fizzbuzz")
    leap = tmp_path / "leap"
    (leap / "acceptance" / "python").mkdir(parents=True)
    (leap / "kata.md").write_text("# Leap\n")
    (leap / "acceptance" / "python" / "test_leap.py").write_text("def test_x() -> None: ...\n")
    models = resolve_models(["openai:a"], BenchSettings())
    jobs, skipped = plan_jobs(models, find_katas(tmp_path), ["python"], 1)
    assert sorted(job.kata.name for job in jobs) == ["fizzbuzz", "leap"]
    jobs, skipped = plan_jobs(models, find_katas(tmp_path), ["python"], 1, require_data=True)
    assert [job.kata.name for job in jobs] == ["fizzbuzz"]
    assert skipped == ["leap in python: judged in-process, not as data (--require-data)"]
    with pytest.raises(UsageError, match=r"has a data suite \(--require-data\) for python"):
        plan_jobs(models, find_katas(leap), ["python"], 1, require_data=True)


def test_a_kata_whose_suite_defines_no_test_stops_the_bench_before_any_job(
    tmp_path: Path,
) -> None:
    # Its every job would have scored 0/0, and the leaderboard ranked each model 0% on it.
    shutil.copytree(KATAS / "fizzbuzz", tmp_path / "fizzbuzz")
    wrap = tmp_path / "wordwrap"
    (wrap / "acceptance" / "python").mkdir(parents=True)
    (wrap / "kata.md").write_text("# Word wrap\n")
    (wrap / "acceptance" / "python" / "wrap_checks.py").write_text("def check() -> None: ...\n")
    models = resolve_models(["openai:a"], BenchSettings())
    with pytest.raises(UsageError, match=r"wordwrap: acceptance/python/ defines no test"):
        plan_jobs(models, find_katas(tmp_path), ["python"], 1)


def test_each_repeat_draws_its_own_seed_and_a_rerun_the_same_ones() -> None:
    [entry] = resolve_models(["custom:qwen"], BenchSettings())
    seeded = load_settings(overrides={"bench": {"seed": 7}})
    seeds = [
        job_settings(seeded, Job(entry, KATAS / "fizzbuzz", "python", repeat)).roles
        for repeat in (1, 2, 3)
    ]
    assert [(r.tester.seed, r.implementer.seed, r.refactorer.seed) for r in seeds] == [
        (7, 7, 7), (8, 8, 8), (9, 9, 9)
    ]  # fmt: skip
    # Unseeded, a role's own seed (or none) stands.
    own = load_settings(overrides={"roles": {"implementer": {"model": "custom:q", "seed": 3}}})
    roles = job_settings(own, Job(entry, KATAS / "fizzbuzz", "python", 2)).roles
    assert (roles.implementer.seed, roles.tester.seed) == (3, None)


def test_katas_are_picked_by_name_as_pytest_s_k_picks_tests(tmp_path: Path) -> None:
    from tdd_sandbox.bench.jobs import select_katas
    from tdd_sandbox.errors import UsageError

    katas = [tmp_path / name for name in ("two-bucket", "two-fer", "bowling", "leap")]
    assert select_katas(katas, []) == katas
    assert [k.name for k in select_katas(katas, ["two-*"])] == ["two-bucket", "two-fer"]
    assert [k.name for k in select_katas(katas, ["bucket", "leap"])] == ["two-bucket", "leap"]
    with pytest.raises(UsageError, match="-k zebra matches no kata: there are two-bucket"):
        select_katas(katas, ["zebra"])


def test_a_job_s_kept_code_stays_in_its_folder(tmp_path: Path) -> None:
    from tdd_sandbox.bench.implement import keep_files

    folder = tmp_path / "job" / "code"
    (folder / "stale.py").parent.mkdir(parents=True)
    (folder / "stale.py").write_text("from an earlier try")
    keep_files(folder, {"src/a.py": b"a", "../escape.py": b"x", "/etc/evil": b"y", "b.py": b"b"})
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.py")) == [
        "b.py", "src/a.py",
    ]  # fmt: skip
    assert not (tmp_path / "job" / "escape.py").exists()


def test_an_entrys_options_are_validated_as_settings_not_pasted_in() -> None:
    import warnings

    from tdd_sandbox.bench.jobs import model_settings
    from tdd_sandbox.llm.formats import EditFormat

    bench = BenchSettings(models={"small": {"all": "custom:small", "edit_format": "whole"}})
    [entry] = resolve_models(["small"], bench)
    settings = model_settings(load_settings(), entry, seed=3)
    assert settings.roles.implementer.edit_format is EditFormat.WHOLE
    assert settings.roles.tester.seed == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a str where the enum belongs warns on every dump
        settings.model_dump(mode="json")
