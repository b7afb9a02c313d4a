from __future__ import annotations

import json

from tdd_sandbox.sandbox.seccomp import NAMESPACES, allowed_calls, profile, security_option

NEVER = {
    "bpf", "perf_event_open", "init_module", "finit_module", "delete_module", "kexec_load",
    "kexec_file_load", "keyctl", "add_key", "request_key", "userfaultfd", "io_uring_setup",
    "open_by_handle_at", "name_to_handle_at", "pivot_root", "chroot", "reboot",
    "swapon", "settimeofday", "clock_settime", "acct", "mbind", "set_mempolicy", "quotactl",
}  # fmt: skip


def test_the_profile_is_an_allowlist_with_the_namespace_calls_and_none_of_the_dangerous() -> None:
    made = profile()
    assert made["defaultAction"] == "SCMP_ACT_ERRNO"
    allowed = set(allowed_calls())
    assert set(NAMESPACES.split()) <= allowed
    assert not allowed & NEVER
    assert {"read", "execve", "futex", "openat", "clone3"} - allowed == {"clone3"}


def test_clone_may_not_make_namespaces_and_clone3_falls_back() -> None:
    rules = {tuple(rule["names"]): rule for rule in profile()["syscalls"]}
    clone = rules[("clone",)]
    assert clone["args"][0]["op"] == "SCMP_CMP_MASKED_EQ"
    assert clone["args"][0]["value"] & 0x10000000  # CLONE_NEWUSER is among the masked flags
    assert rules[("clone3",)]["errnoRet"] == 38  # ENOSYS: glibc then uses clone


def test_the_option_carries_the_profile_as_json() -> None:
    option = security_option()
    assert option.startswith("seccomp=")
    assert json.loads(option.removeprefix("seccomp=")) == profile()
