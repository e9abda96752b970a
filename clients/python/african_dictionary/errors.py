"""The client's one exception: every failure the service answers, with the spec's code, message and details."""
from __future__ import annotations

from typing import Optional, Union

from ._generated import ErrorCode, QuotaDetails
from .types import ClientErrorCode, RateLimit


class DictionaryApiError(Exception):
    """A failure, with the service's error code (stable: branch on it) and message (for people)."""

    def __init__(
        self,
        code: Union[ErrorCode, ClientErrorCode],
        message: str,
        status: int,
        details: Optional[QuotaDetails] = None,
        retry_after_seconds: Optional[int] = None,
        rate_limit: Optional[RateLimit] = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        #: The HTTP status; 0 when no answer came.
        self.status = status
        #: Set for quota_exceeded: plan, endpoint, used, limit.
        self.details = details
        #: Seconds from the Retry-After header of a 429.
        self.retry_after_seconds = retry_after_seconds
        #: The X-RateLimit-* headers, which a metered failure after the key is resolved still carries.
        self.rate_limit = rate_limit
