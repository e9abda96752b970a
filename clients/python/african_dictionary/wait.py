"""How long to wait after a 429, as the contract says: quota_exceeded lasts until 00:00 UTC, rate_limited for
its 900-second window; a Retry-After header, when sent, is the service's own word and wins."""
from __future__ import annotations

import re
from email.utils import parsedate_to_datetime
from typing import Literal, Optional

#: The registration throttle's window (spec, Limits: 5 per address per 15 minutes, Retry-After 900).
RATE_LIMITED_WAIT_SECONDS = 900
_DAY_SECONDS = 86_400

#: The 429 codes worth waiting on; any other 429 (e.g. a proxy's) is raised at once.
WaitableCode = Literal["quota_exceeded", "rate_limited"]


def seconds_until_utc_midnight(now: float) -> float:
    """Seconds from `now` (epoch seconds) to the next 00:00 UTC, when daily quotas reset."""
    return _DAY_SECONDS - (now % _DAY_SECONDS)


def retry_after_seconds(value: Optional[str], now: float) -> Optional[float]:
    """Retry-After as seconds: delay-seconds or an HTTP date (RFC 9110 10.2.3); None when absent or unreadable."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if re.fullmatch(r"\d+", text):
        return float(text)
    try:
        at = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if at.tzinfo is None:
        return None
    return max(0.0, at.timestamp() - now)


def wait_after_429(code: WaitableCode, retry_after: Optional[str], now: float) -> float:
    """The wait before retrying a 429 with this code, in seconds."""
    from_header = retry_after_seconds(retry_after, now)
    if from_header is not None:
        return from_header
    return float(RATE_LIMITED_WAIT_SECONDS) if code == "rate_limited" else seconds_until_utc_midnight(now)
