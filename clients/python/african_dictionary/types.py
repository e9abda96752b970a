"""What the client returns beyond the generated records: the registration reply and body, which the OpenAPI
description leaves untyped or incomplete, the rate-limit headers and the result of a call."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, Mapping, Optional, TypedDict, TypeVar

Plan = Literal["free", "team", "institution"]

#: The codes POST /api/v1/developers answers: 429 is rate_limited with Retry-After: 900 (the description
#: lists the shared quota_exceeded response) and 500 internal_error is possible (the description lists none).
RegistrationErrorCode = Literal["invalid_parameter", "rate_limited", "internal_error"]

#: Codes the client adds for failures without the service's error body: no answer at all (status 0), or an
#: answer that is not the service's JSON (a proxy's HTML page).
ClientErrorCode = Literal["network_error", "unexpected_response"]


class Developer(TypedDict):
    #: Opaque identifier.
    id: str
    name: str
    #: Lower-cased by the service.
    email: str
    #: Always free on creation.
    plan: Plan


class Registration(TypedDict):
    """The 201 reply of POST /api/v1/developers, which the description types as an object without fields."""

    developer: Developer
    #: The plaintext key (svc_live_ and 40 hex characters), returned this once only: store it now.
    apiKey: str
    #: The first 17 characters of the key, kept in clear by the service to name the key.
    keyPrefix: str
    #: Fixed text telling the caller to store the key now.
    warning: str
    #: Fixed text saying to send the key as X-API-Key.
    usage: str


@dataclass(frozen=True)
class RateLimit:
    """The X-RateLimit-* headers of a metered response."""

    #: The key's daily limit for this endpoint.
    limit: int
    #: Requests left today (UTC) for this key and endpoint.
    remaining: int
    #: This request's number within the key's day for this endpoint.
    used: int


T = TypeVar("T")


@dataclass(frozen=True)
class ApiResult(Generic[T]):
    """A successful response: its parsed body, status, headers (lower-case names) and rate-limit headers."""

    body: T
    status: int
    headers: Mapping[str, str]
    #: None on the unmetered operations (registration, the OpenAPI description).
    rate_limit: Optional[RateLimit]
