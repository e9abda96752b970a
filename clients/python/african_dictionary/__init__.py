"""A typed client for the open dictionary API of African languages (standard library only)."""
from ._generated import *  # noqa: F401,F403 (the response records, listed in their own __all__)
from ._generated import __all__ as _generated_names
from ._http import WaitInfo
from .client import DEFAULT_MAX_WAITS, DEFAULT_TIMEOUT_SECONDS, PAGING_LIMIT, DictionaryClient, SearchScope
from .errors import DictionaryApiError
from .types import ApiResult, ClientErrorCode, Developer, Plan, RateLimit, Registration, RegistrationErrorCode
from .wait import RATE_LIMITED_WAIT_SECONDS, WaitableCode, retry_after_seconds, seconds_until_utc_midnight, wait_after_429

__all__ = [
    *_generated_names,
    "ApiResult",
    "ClientErrorCode",
    "DEFAULT_MAX_WAITS",
    "DEFAULT_TIMEOUT_SECONDS",
    "Developer",
    "DictionaryApiError",
    "DictionaryClient",
    "PAGING_LIMIT",
    "Plan",
    "RATE_LIMITED_WAIT_SECONDS",
    "RateLimit",
    "Registration",
    "RegistrationErrorCode",
    "SearchScope",
    "WaitInfo",
    "WaitableCode",
    "retry_after_seconds",
    "seconds_until_utc_midnight",
    "wait_after_429",
]
