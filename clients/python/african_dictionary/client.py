"""DictionaryClient: every operation of the API over urllib (standard library only), the key sent as
X-API-Key, search paged to its end, and 429s waited on as the contract says unless the caller prefers an error."""
from __future__ import annotations

import copy
import json
import time
import urllib.parse
from typing import Any, Callable, Dict, Iterator, Literal, Mapping, Optional, Union, cast

from ._generated import Entry, Languages, PartOfSpeech, Stats, WordOfTheDay, WordsPage, WordSummary
from ._http import Call, WaitInfo, WaitPolicy, request
from .types import ApiResult, Registration

#: Waits per request before a 429 is raised, by default.
DEFAULT_MAX_WAITS = 3
#: Results per page when paging a whole result set: the route's maximum, so the fewest requests count.
PAGING_LIMIT = 100
#: Seconds to wait for an answer, by default.
DEFAULT_TIMEOUT_SECONDS = 30.0

#: What a search's q is matched with (the scope parameter): both, the words of the language, or English meanings.
SearchScope = Literal["all", "headword", "meaning"]


class DictionaryClient:
    """The dictionary API's operations. Thread-safe: a call keeps no state on the client."""

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        *,
        on_429: Literal["wait", "throw"] = "wait",
        max_waits: int = DEFAULT_MAX_WAITS,
        max_wait_seconds: Optional[float] = None,
        on_wait: Optional[Callable[[WaitInfo], None]] = None,
        sleep: Callable[[float], None] = time.sleep,
        now: Callable[[], float] = time.time,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        """
        base_url: where the service answers, e.g. "https://dictionary.example.org" (the client adds /api/v1/...).
        api_key: sent as X-API-Key on the metered operations.
        on_429: "wait" (default) waits as the contract says (quota_exceeded until 00:00 UTC, rate_limited
            900 s; Retry-After when sent) and retries; "throw" raises DictionaryApiError at once.
        max_waits: waits per request before the 429 is raised. max_wait_seconds: a longer wait is not made.
        on_wait: told of each wait before it starts. sleep, now: how to wait and the clock (epoch seconds).
        headers: sent with every request (e.g. a User-Agent).
        """
        if on_429 not in ("wait", "throw"):
            raise ValueError('on_429 must be "wait" or "throw"')
        self._base = base_url.rstrip("/")
        self._api_key = api_key
        self._timeout = timeout
        self._headers = dict(headers or {})
        self._policy = WaitPolicy(on_429, max_waits, max_wait_seconds, on_wait, sleep, now)

    def with_api_key(self, api_key: str) -> DictionaryClient:
        """The same client with another key (e.g. the one registration returned)."""
        other = copy.copy(self)
        other._api_key = api_key
        return other

    def search_words(
        self,
        q: Optional[str] = None,
        *,
        language: Optional[str] = None,
        part_of_speech: Optional[PartOfSpeech] = None,
        scope: Optional[SearchScope] = None,
        page: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> ApiResult[WordsPage]:
        """GET /api/v1/words: one page (page up to 10,000, limit 1 to 100, default 20). scope keeps q to the
        words of the language (headword) or to English meanings (meaning)."""
        query = {"q": q, "language": language, "partOfSpeech": part_of_speech, "scope": scope, "page": page, "limit": limit}
        return cast(ApiResult[WordsPage], self._get("/api/v1/words", query))

    def search_pages(
        self,
        q: Optional[str] = None,
        *,
        language: Optional[str] = None,
        part_of_speech: Optional[PartOfSpeech] = None,
        scope: Optional[SearchScope] = None,
        page: int = 1,
        limit: int = PAGING_LIMIT,
    ) -> Iterator[ApiResult[WordsPage]]:
        """Every page of one result set, from `page` until hasMore is false, with the same query throughout.
        Each page is one request against the quota."""
        while True:
            result = self.search_words(q, language=language, part_of_speech=part_of_speech, scope=scope, page=page, limit=limit)
            yield result
            if not result.body["hasMore"]:
                return
            page += 1

    def search_all(
        self,
        q: Optional[str] = None,
        *,
        language: Optional[str] = None,
        part_of_speech: Optional[PartOfSpeech] = None,
        scope: Optional[SearchScope] = None,
        limit: int = PAGING_LIMIT,
    ) -> Iterator[WordSummary]:
        """Every word of one result set, paging as search_pages does."""
        for result in self.search_pages(q, language=language, part_of_speech=part_of_speech, scope=scope, limit=limit):
            yield from result.body["data"]

    def get_word(self, id_or_slug: Union[int, str]) -> ApiResult[Entry]:
        """GET /api/v1/words/{id}: one entry in full, by its id or its slug."""
        path = "/api/v1/words/" + urllib.parse.quote(str(id_or_slug), safe="")
        return cast(ApiResult[Entry], self._get(path, {}))

    def word_of_the_day(self, language: Optional[str] = None, date: Optional[str] = None) -> ApiResult[WordOfTheDay]:
        """GET /api/v1/word-of-the-day, optionally for one language and one UTC day (YYYY-MM-DD)."""
        return cast(ApiResult[WordOfTheDay], self._get("/api/v1/word-of-the-day", {"language": language, "date": date}))

    def languages(self) -> ApiResult[Languages]:
        """GET /api/v1/languages: every language with its word count."""
        return cast(ApiResult[Languages], self._get("/api/v1/languages", {}))

    def stats(self) -> ApiResult[Stats]:
        """GET /api/v1/stats: the totals."""
        return cast(ApiResult[Stats], self._get("/api/v1/stats", {}))

    def openapi(self) -> ApiResult[Dict[str, Any]]:
        """GET /api/v1/openapi.json: the OpenAPI 3.1.0 description as served (no key needed)."""
        return request(Call(self._base + "/api/v1/openapi.json", "GET", self._request_headers(False)), self._policy, self._timeout)

    def register(
        self,
        name: str,
        email: str,
        *,
        organization: Optional[str] = None,
        use_case: Optional[str] = None,
        key_name: Optional[str] = None,
    ) -> ApiResult[Registration]:
        """POST /api/v1/developers: registers a developer (idempotent on email) and issues a free-plan key,
        returned this once only. No key needed; throttled per address (429 rate_limited, Retry-After 900).
        key_name is read by the route though the OpenAPI description omits it (default "default")."""
        fields = {"name": name, "email": email, "organization": organization, "useCase": use_case, "keyName": key_name}
        body = json.dumps({k: v for k, v in fields.items() if v is not None}).encode("utf-8")
        headers = {**self._request_headers(False), "Content-Type": "application/json"}
        call = Call(self._base + "/api/v1/developers", "POST", headers, body)
        return cast(ApiResult[Registration], request(call, self._policy, self._timeout))

    def _get(self, path: str, query: Mapping[str, Union[str, int, None]]) -> ApiResult[Any]:
        present = {name: str(value) for name, value in query.items() if value is not None}
        url = self._base + path + ("?" + urllib.parse.urlencode(present) if present else "")
        return request(Call(url, "GET", self._request_headers(True)), self._policy, self._timeout)

    def _request_headers(self, metered: bool) -> Dict[str, str]:
        headers = {"Accept": "application/json", "Accept-Encoding": "gzip", **self._headers}
        if metered and self._api_key:
            headers["X-API-Key"] = self._api_key
        return headers
