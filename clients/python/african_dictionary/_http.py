"""One request to the service: sends it with urllib, reads the JSON answer and the rate-limit headers, turns a
failure into DictionaryApiError, and waits on 429 as the contract says (when the caller wants waiting)."""
from __future__ import annotations

import gzip
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, Literal, Mapping, Optional, Tuple

from .errors import DictionaryApiError
from .types import ApiResult, RateLimit
from .wait import WaitableCode, wait_after_429


@dataclass(frozen=True)
class WaitInfo:
    """One wait before a retry, as `on_wait` sees it."""

    code: WaitableCode
    #: How long the client is about to wait, in seconds.
    wait_seconds: float
    #: 1 for the first wait of this request.
    attempt: int
    error: DictionaryApiError


@dataclass(frozen=True)
class WaitPolicy:
    #: "wait" sleeps and retries; "throw" raises the 429 as DictionaryApiError at once.
    on_429: Literal["wait", "throw"]
    #: Waits per request before the 429 is raised.
    max_waits: int
    #: A wait longer than this (seconds) is not made: the 429 is raised instead. None: no bound.
    max_wait_seconds: Optional[float]
    on_wait: Optional[Callable[[WaitInfo], None]]
    sleep: Callable[[float], None]
    now: Callable[[], float]


@dataclass(frozen=True)
class Call:
    url: str
    method: str
    headers: Mapping[str, str]
    body: Optional[bytes] = None


def _rate_limit(headers: Mapping[str, str]) -> Optional[RateLimit]:
    try:
        return RateLimit(
            limit=int(headers["x-ratelimit-limit"]),
            remaining=int(headers["x-ratelimit-remaining"]),
            used=int(headers["x-ratelimit-used"]),
        )
    except (KeyError, ValueError):
        return None


def _error(status: int, headers: Mapping[str, str], parsed: Any) -> DictionaryApiError:
    retry_after = headers.get("retry-after", "").strip()
    seconds = int(retry_after) if re.fullmatch(r"\d+", retry_after) else None
    rate_limit = _rate_limit(headers)
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("code"), str) or not isinstance(error.get("message"), str):
        message = f"The service answered {status} without its error body."
        return DictionaryApiError("unexpected_response", message, status, None, seconds, rate_limit)
    return DictionaryApiError(error["code"], error["message"], status, error.get("details"), seconds, rate_limit)


def _exchange(call: Call, timeout: float) -> Tuple[int, Dict[str, str], bytes]:
    """The status, headers (lower-case names) and body of the answer, 4xx and 5xx included."""
    request = urllib.request.Request(call.url, data=call.body, headers=dict(call.headers), method=call.method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw_headers, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as failure:
        status, raw_headers, raw = failure.code, failure.headers, failure.read()
    except (urllib.error.URLError, OSError) as failure:
        reason = getattr(failure, "reason", failure)
        raise DictionaryApiError("network_error", f"No answer from {call.url}: {reason}", 0) from failure
    headers = {name.lower(): value for name, value in raw_headers.items()}
    # Sent gzip because the client asks for it: most of the service's users are on slow links.
    if headers.get("content-encoding") == "gzip":
        raw = gzip.decompress(raw)
    return status, headers, raw


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def request(call: Call, policy: WaitPolicy, timeout: float) -> ApiResult[Any]:
    """Sends `call`, retrying after the waits the policy allows; returns a 2xx answer, else raises."""
    attempt = 1
    while True:
        status, headers, raw = _exchange(call, timeout)
        parsed = _json(raw)
        if 200 <= status < 300:
            if parsed is None:
                raise DictionaryApiError("unexpected_response", f"The service answered {status} without JSON.", status)
            return ApiResult(body=parsed, status=status, headers=headers, rate_limit=_rate_limit(headers))
        error = _error(status, headers, parsed)
        if status != 429 or policy.on_429 == "throw" or attempt > policy.max_waits:
            raise error
        if error.code != "quota_exceeded" and error.code != "rate_limited":
            raise error
        wait = wait_after_429(error.code, headers.get("retry-after"), policy.now())
        if policy.max_wait_seconds is not None and wait > policy.max_wait_seconds:
            raise error
        if policy.on_wait is not None:
            policy.on_wait(WaitInfo(code=error.code, wait_seconds=wait, attempt=attempt, error=error))
        policy.sleep(wait)
        attempt += 1
