"""The forge client against a real HTTP server on loopback speaking the pulls API subset."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from tdd_sandbox.forge.client import Forge, ForgeError, repository_of
from tdd_sandbox.settings.forge import ForgeSettings
from tests.helpers.forge import LoopbackForge

TOKEN = "ghp_secret_do_not_leak_0123456789"
REPO = "kata-org/kata"


@pytest.fixture
def forge() -> Iterator[LoopbackForge]:
    with LoopbackForge(REPO) as served:
        yield served


def _client(forge_url: str, waits: list[float] | None = None, **settings: object) -> Forge:
    config = ForgeSettings(api_url=forge_url, token_env="TDD_TEST_TOKEN", **settings)
    sleep = waits.append if waits is not None else (lambda _: None)
    return Forge(config, REPO, environ={"TDD_TEST_TOKEN": TOKEN}, sleep=sleep)


def test_a_branch_gets_one_pull_request_opened_then_updated(forge: LoopbackForge) -> None:
    client = _client(forge.api_url)
    first = client.open_or_update("tdd/run-1", "main", "FizzBuzz", "2 green commits")
    again = client.open_or_update("tdd/run-1", "main", "FizzBuzz", "3 green commits")
    assert first.created
    assert not again.created
    assert again.number == first.number
    assert again.url == first.url
    assert len(forge.state.pulls) == 1
    assert forge.state.pulls[0]["body"] == "3 green commits"
    assert forge.state.pulls[0]["head"]["ref"] == "tdd/run-1"
    assert forge.state.pulls[0]["base"]["ref"] == "main"
    # Another branch, or the same branch into another base, is another pull request.
    other = client.open_or_update("tdd/run-2", "main", "FizzBuzz", "1 green commit")
    assert other.created
    assert other.number != first.number


def test_the_token_travels_in_the_authorization_header_only(forge: LoopbackForge) -> None:
    client = _client(forge.api_url)
    client.open_or_update("tdd/run-1", "main", "FizzBuzz", "body")
    client.open_or_update("tdd/run-1", "main", "FizzBuzz", "body")
    assert forge.state.seen
    for seen in forge.state.seen:
        assert seen.headers["Authorization"] == f"token {TOKEN}"
        elsewhere = [v for k, v in seen.headers.items() if k != "Authorization"]
        assert TOKEN not in json.dumps([seen.path, seen.query, elsewhere, seen.body])


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (401, {"message": "Bad credentials"}, "refused the token in TDD_TEST_TOKEN (401: Bad"),
        (404, {"message": "Not Found"}, f"no repository {REPO} at"),
        (403, {"message": "Resource not accessible"}, "may not open pull requests on"),
        (422, {"message": "Validation Failed", "errors": [{"message": "No commits between"}]},
         "refused the pull request (422: Validation Failed; No commits between"),
    ],
)  # fmt: skip
def test_a_refusal_is_one_line_naming_it_and_never_the_token(
    forge: LoopbackForge, status: int, body: dict[str, object], expected: str
) -> None:
    forge.state.failures = [(status, body)]
    with pytest.raises(ForgeError) as caught:
        _client(forge.api_url).open_or_update("tdd/run-1", "main", "FizzBuzz", "body")
    message = str(caught.value)
    assert expected in message
    assert "\n" not in message
    assert TOKEN not in message
    assert len(forge.state.seen) == 1  # a refusal is not retried


def test_a_failing_forge_is_retried_with_backoff_then_answers(forge: LoopbackForge) -> None:
    forge.state.failures = [(500, {"message": "boom"}), (502, {}), (429, {})]
    waits: list[float] = []
    made = _client(forge.api_url, waits, max_retries=3).open_or_update(
        "tdd/run-1", "main", "FizzBuzz", "body"
    )
    assert made.created
    assert waits == [0.5, 1.0, 2.0]
    assert [s.method for s in forge.state.seen] == ["GET", "GET", "GET", "GET", "POST"]


def test_retries_are_bounded_and_end_in_one_line(forge: LoopbackForge) -> None:
    forge.state.failures = [(503, {"message": "down for maintenance\x1b[2J"})] * 5
    with pytest.raises(ForgeError, match=r"failed \(503: down for maintenance\[2J\)") as caught:
        _client(forge.api_url, max_retries=2).find_open("tdd/run-1", "main")
    assert "\x1b" not in str(caught.value)  # the forge's words reach a terminal
    assert len(forge.state.seen) == 3


def test_a_forge_nobody_answers_for_is_named() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{free.getsockname()[1]}"
    waits: list[float] = []
    with pytest.raises(
        ForgeError, match=r"did not answer GET .* after 2 tries: check forge.api_url"
    ):
        _client(url, waits, max_retries=1).find_open("tdd/run-1", "main")
    assert waits == [0.5]


def test_without_a_token_nothing_is_sent(forge: LoopbackForge) -> None:
    settings = ForgeSettings(api_url=forge.api_url, token_env="TDD_TEST_TOKEN")
    with pytest.raises(ForgeError, match="no forge token: set TDD_TEST_TOKEN"):
        Forge(settings, REPO, environ={})
    with pytest.raises(ForgeError, match="is not owner/name"):
        Forge(settings, "just-a-name", environ={"TDD_TEST_TOKEN": TOKEN})
    assert forge.state.seen == []


def test_a_pull_request_of_a_fork_s_branch_of_the_same_name_is_not_the_run_s(
    forge: LoopbackForge,
) -> None:
    forge.state.pulls.append({
        "number": 7, "state": "open", "html_url": "http://forge/pull/7", "body": "",
        "head": {"ref": "tdd/run-1", "repo": {"full_name": "someone/kata"}},
        "base": {"ref": "main"},
    })  # fmt: skip
    made = _client(forge.api_url).open_or_update("tdd/run-1", "main", "FizzBuzz", "body")
    assert made.created
    assert made.number != 7


def test_a_pull_request_past_the_first_page_is_found_not_duplicated(
    forge: LoopbackForge,
) -> None:
    # Gitea lists every open pull request whatever `head` asks: a busy repository's pull
    # request of the run's branch can stand on a later page.
    for number in range(1, 76):
        forge.state.pulls.append({
            "number": number, "state": "open", "html_url": f"http://forge/pull/{number}",
            "body": "", "base": {"ref": "main"},
            "head": {"ref": f"feature/{number}", "repo": {"full_name": "kata-org/kata"}},
        })  # fmt: skip
    forge.state.pulls[70]["head"]["ref"] = "tdd-run/run-1"
    made = _client(forge.api_url).open_or_update("tdd-run/run-1", "main", "FizzBuzz", "new")
    assert (made.number, made.created) == (71, False)
    assert len(forge.state.pulls) == 75
    assert forge.state.pulls[70]["body"] == "new"


@pytest.mark.parametrize(
    ("url", "repository"),
    [
        ("https://github.com/kata-org/kata.git", "kata-org/kata"),
        ("https://github.com/kata-org/kata", "kata-org/kata"),
        ("git@github.com:kata-org/kata.git", "kata-org/kata"),
        ("ssh://git@gitea.example:2222/kata-org/kata.git", "kata-org/kata"),
        ("https://user:pass@gitea.example/kata-org/kata.git/", "kata-org/kata"),
        ("/srv/git/kata.git", None),
        ("https://gitea.example/group/sub/kata.git", None),
    ],
)
def test_the_repository_is_read_from_the_remote_s_url(url: str, repository: str | None) -> None:
    assert repository_of(url) == repository
