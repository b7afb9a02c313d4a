"""A live OpenAI-compatible endpoint through the openai SDK, with bounded retries.

Retries (tenacity) cover 429, 5xx, timeouts and connection errors, waiting what the server's
`Retry-After` asks (capped) or else an exponential back-off with jitter. Running out of
retries is an infrastructure error, never a model failure.
"""

from __future__ import annotations

import functools
import ssl
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx2
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)

from tdd_sandbox.llm.chat import ChatReply, ChatRequest, FormatUnsupported, InfrastructureError
from tdd_sandbox.llm.endpoint import Endpoint
from tdd_sandbox.llm.stream import Overdue, Streamed, read, whole
from tdd_sandbox.vocabulary.counts import plural

if TYPE_CHECKING:
    import openai

MAX_RETRY_AFTER_S = 60.0
_backoff = wait_exponential_jitter(multiplier=0.5, max=20.0, jitter=0.5)


def _transient(exc: BaseException) -> bool:
    import openai  # the SDK loads in 0.4 s: only a run that talks to a model waits for it

    return isinstance(
        exc,
        openai.RateLimitError
        | openai.InternalServerError
        | openai.APITimeoutError
        | openai.APIConnectionError,
    ) or (isinstance(exc, openai.APIStatusError) and exc.status_code in (408, 409, 425))


def refused(exc: BaseException) -> bool:
    """Whether nothing listens where the request went (the connection was refused)."""
    seen: BaseException | None = exc
    for _ in range(8):  # the SDK wraps the socket's error a few times over
        if seen is None:
            return False
        if isinstance(seen, ConnectionRefusedError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def retry_after_s(exc: BaseException | None) -> float | None:
    """Seconds the server asked us to wait, from `Retry-After` (or `retry-after-ms`)."""
    response = getattr(exc, "response", None)
    headers: Any = getattr(response, "headers", None)
    if headers is None:
        return None
    try:
        if (ms := headers.get("retry-after-ms")) is not None:
            return float(ms) / 1000
        if (seconds := headers.get("retry-after")) is not None:
            return float(seconds)
    except ValueError:
        return None  # an HTTP date: fall back to our own back-off
    return None


def _wait(state: RetryCallState) -> float:
    exc = state.outcome.exception() if state.outcome is not None else None
    asked = retry_after_s(exc)
    if asked is not None:
        return min(max(asked, 0.0), MAX_RETRY_AFTER_S)
    return float(_backoff(state))


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The TLS settings every client shares, made as the HTTP library makes them (its CA
    bundle, `SSL_CERT_FILE`): loading the CAs takes ~35 ms, and every role and every racing
    attempt has a client of its own."""
    return httpx2.create_ssl_context()


class OpenAIBackend:
    """Sends requests to one endpoint."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        timeout_s: float,
        max_retries: int,
        notify: Callable[[str], None] | None = None,
        stop_repeating: bool = True,
    ) -> None:
        """`notify` hears of every failed try that will be retried, as it happens;
        `stop_repeating` stops an answer that repeats itself (`llm.stream`)."""
        self.endpoint = endpoint
        self._timeout_s = timeout_s
        self._stop_repeating = stop_repeating
        self._max_retries = max_retries
        self._answered = False
        """Whether the endpoint ever answered: until then a refused connection is final."""
        self._notify = notify
        self._closed = False
        """Whether the caller closed the client (a raced attempt that lost): its request's
        failure is then the caller's doing, never retried or said."""
        import openai

        self._client = openai.OpenAI(
            base_url=endpoint.base_url,
            api_key=endpoint.api_key or "unused",  # local servers take any key
            timeout=timeout_s,
            max_retries=0,  # retries are ours, so they are bounded and logged the same way
            http_client=openai.DefaultHttpxClient(verify=_tls_context()),
        )

    def complete(self, request: ChatRequest) -> ChatReply:
        """Answer `request`, retrying transient failures.

        Raises:
            InfrastructureError: retries ran out, or the endpoint refused us for good.
            FormatUnsupported: the endpoint rejected `response_format`.
        """
        import openai

        retrying = Retrying(
            stop=stop_after_attempt(self._max_retries + 1),
            wait=_wait,
            retry=retry_if_exception(self._worth_retrying),
            reraise=True,
            before_sleep=self._say_retry,
        )
        started = time.monotonic()
        try:
            streamed = self._send(retrying, request)
        except openai.APIStatusError as exc:
            raise self._classify(exc, request) from None
        except (openai.APITimeoutError, openai.APIConnectionError) as exc:
            if refused(exc) and not self._answered:
                raise InfrastructureError(
                    f"nothing listens at {self.endpoint.base_url} (connection refused): start "
                    "the model's server, or fix base_url"
                ) from None
            raise InfrastructureError(
                f"{self.endpoint.base_url} did not answer after "
                f"{plural(self._max_retries + 1, 'try')} ({type(exc).__name__}): check that "
                "the endpoint is up"
            ) from None
        except (ValueError, openai.APIResponseValidationError):
            streamed = None  # a body that is not JSON at all
        except openai.APIError as exc:  # an error event in the stream
            raise InfrastructureError(
                f"{self.endpoint.base_url} broke off its answer: {exc.message}"
            ) from None
        if streamed is None:
            # A web server, a proxy's error page, a wrong path: 200, but not the chat API.
            raise InfrastructureError(
                f"{self.endpoint.base_url} answered with something that is not the chat API's "
                "JSON (an HTML page?): check base_url, which usually ends in /v1"
            )
        self._answered = True
        return ChatReply(
            tool_arguments=streamed.tool_arguments,
            text=streamed.text,
            prompt_tokens=streamed.prompt_tokens,
            completion_tokens=streamed.completion_tokens,
            finish_reason=streamed.finish_reason,
            duration_s=time.monotonic() - started,
        )

    def _send(self, retrying: Retrying, request: ChatRequest) -> Streamed | None:
        try:
            return retrying(self._create, request)
        except Exception:
            if self._closed:
                raise InfrastructureError("the request was closed by its caller") from None
            raise

    def _worth_retrying(self, exc: BaseException) -> bool:
        """A transient failure is retried; a refused connection only once the endpoint has
        answered (a server restarting mid-run), never before: nothing listening there took
        20 s of retries to say so. Nothing is retried once the caller closed the client."""
        if self._closed:
            return False
        return _transient(exc) and (self._answered or not refused(exc))

    def _say_retry(self, state: RetryCallState) -> None:
        if self._notify is None or state.outcome is None:
            return
        exc = state.outcome.exception()
        status = getattr(exc, "status_code", None)
        why = f"HTTP {status}" if status else type(exc).__name__
        wait = state.next_action.sleep if state.next_action is not None else 0.0
        self._notify(
            f"{self.endpoint.base_url} ({self.endpoint.model}): attempt {state.attempt_number} "
            f"of {self._max_retries + 1} failed ({why}); retrying in {wait:.0f}s"
        )

    def _create(self, request: ChatRequest) -> Streamed | None:
        """One try: the answer streamed (so that one that repeats itself can be stopped), read
        within the request's time, its connection closed whatever happens; in one piece when
        nothing is to be stopped (`llm.stop_repeating: false`, for a server that cannot
        stream)."""
        import openai

        asked: dict[str, Any] = {
            "model": request.model,
            "messages": request.messages,
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
        }
        if request.response_format is not None:
            asked["response_format"] = request.response_format
        if request.seed is not None:
            asked["seed"] = request.seed
        if request.tools is not None:
            asked["tools"] = request.tools
            if request.tool_choice is not None:
                asked["tool_choice"] = request.tool_choice
        create = self._client.chat.completions.create
        if not self._stop_repeating:
            return whole(create(**asked))
        try:
            stream = create(**asked, stream=True, stream_options={"include_usage": True})
        except openai.BadRequestError as exc:
            if "stream_options" not in str(exc.message):
                raise
            # A server that streams but cannot count: its answer's chunks are counted instead.
            stream = create(**asked, stream=True)
        # Each read waits at most timeout_s: the whole answer is held to it as well, as the
        # answer sent in one piece was.
        deadline = time.monotonic() + self._timeout_s
        try:
            return read(iter(stream), deadline=deadline)
        except Overdue:
            raise openai.APITimeoutError(request=stream.response.request) from None
        finally:
            stream.close()

    def _classify(self, exc: openai.APIStatusError, request: ChatRequest) -> Exception:
        status = exc.status_code
        where = self.endpoint.base_url
        if status in (400, 422) and (request.response_format or request.tools) is not None:
            body = str(exc.message).lower()
            words = ("response_format", "json_schema", "json_object", "tool", "function")
            if any(word in body for word in words):
                return FormatUnsupported(f"{where} does not support this response_format")
        if status in (401, 403):
            return InfrastructureError(
                f"{where} refused the API key in {self.endpoint.api_key_env or '(none)'} "
                f"(HTTP {status}): check the key"
            )
        if status == 404:
            return InfrastructureError(
                f"{where} has no model {self.endpoint.model!r} (HTTP 404): check the model name"
            )
        if status == 429 or status >= 500:
            return InfrastructureError(
                f"{where} kept failing (HTTP {status}) after {plural(self._max_retries + 1, 'try')}"
            )
        return InfrastructureError(f"{where} rejected the request (HTTP {status}): {exc.message}")

    def close(self) -> None:
        """Release the HTTP connection pool; a request still running ends, unretried."""
        self._closed = True
        self._client.close()
