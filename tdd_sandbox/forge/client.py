"""A forge's pulls API, the part a run needs: find the open pull request of a branch, open
one, update its body. GitHub and Gitea (and Forgejo) share these paths and fields; they differ
only in the API's root, which is a setting.

Every fault a user can meet ends as one `ForgeError` line naming it and the fix. The token
goes in the Authorization header and nowhere else: no message, log or record holds it.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx2

from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.forge.body import one_line
from tdd_sandbox.settings.forge import ForgeSettings
from tdd_sandbox.vocabulary.counts import plural

_RETRIED = frozenset({429, 500, 502, 503, 504})
_PAGE = 50  # Gitea's largest page by default; GitHub allows 100
_MAX_PAGES = 20
_REMOTE = re.compile(
    r"^(?:[a-z+]+://(?:[^@/]+@)?[^/]+/|[^@/]+@[^:/]+:)(?P<repo>[^/]+/[^/]+?)(?:\.git)?/?$"
)


class ForgeError(TddSandboxError, RuntimeError):
    """The forge could not be asked, or refused: the message says which and what to do."""


@dataclass(frozen=True)
class PullRequest:
    """One pull request as the forge reports it."""

    number: int
    url: str
    created: bool
    """Opened by this call (not found open already)."""


def repository_of(remote_url: str) -> str | None:
    """`owner/name` from a git remote's URL (`https://host/owner/name.git`,
    `git@host:owner/name.git`, `ssh://git@host/owner/name`); None for another shape."""
    found = _REMOTE.match(remote_url.strip())
    return found["repo"] if found else None


class Forge:
    """Requests to one repository's pulls on one forge."""

    def __init__(
        self,
        settings: ForgeSettings,
        repository: str,
        *,
        environ: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        token = (os.environ if environ is None else environ).get(settings.token_env, "")
        if not token.strip():
            raise ForgeError(
                f"no forge token: set {settings.token_env} to a token that may open pull "
                f"requests on {repository} (or name another variable in forge.token_env)"
            )
        if not re.fullmatch(r"[\w.-]+/[\w.-]+", repository):
            raise ForgeError(f"forge.repository {repository!r} is not owner/name: set it so")
        self.settings = settings
        self.repository = repository
        self._sleep = sleep
        self._client = httpx2.Client(
            base_url=settings.api_url.rstrip("/"),
            timeout=settings.timeout_s,
            headers={"Authorization": f"token {token.strip()}",
                     "Accept": "application/json", "User-Agent": "tdd-sandbox"},
        )  # fmt: skip

    def close(self) -> None:
        """Release the connection."""
        self._client.close()

    def open_or_update(self, head: str, base: str, title: str, body: str) -> PullRequest:
        """The open pull request of `head` into `base`, its body set to `body`; opened with
        `title` when there is none (never a second one for the same branch).

        Raises:
            ForgeError: the forge refused, or did not answer within the retries.
        """
        found = self.find_open(head, base)
        if found is not None:
            self._request("PATCH", f"{self._pulls}/{found.number}", {"body": body})
            return found
        made = self._request(
            "POST", self._pulls, {"title": title, "head": head, "base": base, "body": body}
        )
        return PullRequest(int(made["number"]), str(made["html_url"]), created=True)

    def find_open(self, head: str, base: str) -> PullRequest | None:
        """The open pull request of branch `head` into `base`, if there is one."""
        owner = self.repository.split("/")[0]
        asked = {"state": "open", "head": f"{owner}:{head}", "base": base,
                 "per_page": str(_PAGE), "limit": str(_PAGE)}  # fmt: skip
        # Filtered here too, page after page: Gitea ignores `head` (a busy repository's
        # pull request can stand on a later page), and a fork's branch of the same name is
        # not this run's.
        for page in range(1, _MAX_PAGES + 1):
            listed = self._request("GET", self._pulls, params={**asked, "page": str(page)})
            listed = listed if isinstance(listed, list) else []
            for pull in listed:
                ref = pull.get("head") or {}
                if ref.get("ref") == head and (pull.get("base") or {}).get("ref") == base:
                    repo = (ref.get("repo") or {}).get("full_name", self.repository)
                    if str(repo).lower() == self.repository.lower():
                        return PullRequest(int(pull["number"]), str(pull["html_url"]), False)
            if len(listed) < _PAGE:
                return None
        raise ForgeError(
            f"{self.repository} has over {_PAGE * _MAX_PAGES} open pull requests and none of "
            f"them is {head}'s: open it by hand, or close some"
        )

    @property
    def _pulls(self) -> str:
        return f"/repos/{self.repository}/pulls"

    def _request(
        self, method: str, path: str, body: dict[str, Any] | None = None, *,
        params: dict[str, str] | None = None,
    ) -> Any:  # fmt: skip
        where = f"{self.settings.api_url.rstrip('/')}{path}"
        for attempt in range(self.settings.max_retries + 1):
            last = attempt == self.settings.max_retries
            try:
                response = self._client.request(method, path, json=body, params=params)
            except httpx2.TransportError as exc:
                if last:
                    raise ForgeError(
                        f"the forge at {self.settings.api_url} did not answer {method} {path} "
                        f"({type(exc).__name__}) after {plural(attempt + 1, 'try')}: check "
                        "forge.api_url and the network, then `tdd-sandbox pr`"
                    ) from None
            else:
                if response.status_code not in _RETRIED or last:
                    return _read(response, method, where, self)
            self._sleep(min(2.0**attempt * 0.5, 10.0))
        raise AssertionError("unreachable")  # pragma: no cover


def _read(response: httpx2.Response, method: str, where: str, forge: Forge) -> Any:
    """The response's JSON, or the ForgeError its status means."""
    code = response.status_code
    if code < 300:
        try:
            return response.json()
        except ValueError:
            raise ForgeError(f"{method} {where} answered {code} with no JSON") from None
    said = _message(response)
    repo, env = forge.repository, forge.settings.token_env
    if code == 401:
        raise ForgeError(f"the forge refused the token in {env} (401{said}): renew it")
    if code == 403:
        raise ForgeError(
            f"the token in {env} may not open pull requests on {repo} (403{said}): give it "
            "write access to pull requests"
        )
    if code == 404:
        raise ForgeError(
            f"no repository {repo} at {forge.settings.api_url} (404{said}): check "
            "forge.repository and forge.api_url, and that the token can see it"
        )
    if code == 422:
        raise ForgeError(f"the forge refused the pull request (422{said})")
    raise ForgeError(f"{method} {where} failed ({code}{said}): try again with `tdd-sandbox pr`")


def _message(response: httpx2.Response) -> str:
    """`: <the forge's message>`, one line, short; empty when it gave none."""
    try:
        data = response.json()
    except ValueError:
        return ""
    text = str(data.get("message", "")) if isinstance(data, dict) else ""
    if isinstance(data, dict) and isinstance(data.get("errors"), list):
        details = [str(e.get("message", e)) if isinstance(e, dict) else str(e)
                   for e in data["errors"]]  # fmt: skip
        text = "; ".join(filter(None, [text, *details]))
    text = one_line(text)  # the forge's words reach the terminal
    return f": {text}" if text else ""
