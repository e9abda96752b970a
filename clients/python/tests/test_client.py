"""The client against a real stack, whose address DICTIONARY_BASE_URL gives (test/clients/python-client.test.ts
starts one and runs these tests). The stack trusts X-Forwarded-For from 127.0.0.1, so each test registers from
an address of its own and the per-address throttle of registration meets only the test that seeks it."""
from __future__ import annotations

import os
import random
import re
import time
import unittest
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List, Optional, cast

from african_dictionary import (
    DictionaryApiError,
    DictionaryClient,
    WaitInfo,
    seconds_until_utc_midnight,
)

BASE_URL = os.environ.get("DICTIONARY_BASE_URL", "")
KEY_PATTERN = re.compile(r"^svc_live_[0-9a-f]{40}$")


def fresh_address() -> str:
    return f"172.{random.randint(16, 31)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


class Waits:
    """An injected sleep: records each wait instead of making it."""

    def __init__(self) -> None:
        self.seconds: List[float] = []
        self.seen: List[WaitInfo] = []

    def sleep(self, seconds: float) -> None:
        self.seconds.append(seconds)

    def on_wait(self, info: WaitInfo) -> None:
        self.seen.append(info)


@unittest.skipUnless(BASE_URL, "DICTIONARY_BASE_URL is not set: run through test/clients/python-client.test.ts")
class ClientTest(unittest.TestCase):
    def client(self, api_key: Optional[str] = None, waits: Optional[Waits] = None, **options: Any) -> DictionaryClient:
        waits = waits or Waits()
        headers = {"X-Forwarded-For": options.pop("address", fresh_address())}
        return DictionaryClient(BASE_URL, api_key, sleep=waits.sleep, on_wait=waits.on_wait, headers=headers, **options)

    def new_key(self) -> str:
        return self.client().register("Test Developer", f"py-{time.time_ns()}@example.org").body["apiKey"]

    def keyed(self) -> DictionaryClient:
        return self.client().with_api_key(self.new_key())

    def assertFails(self, code: str, status: int, call: Any) -> DictionaryApiError:
        with self.assertRaises(DictionaryApiError) as caught:
            call()
        error = caught.exception
        self.assertEqual((error.code, error.status), (code, status), f"{error.code}: {error.message}")
        return error

    def test_register_returns_the_key_once_with_the_developer(self) -> None:
        email = f"Ada-{time.time_ns()}@Example.org"
        result = self.client().register("Ada", email, organization="School", use_case="class", key_name="laptop")
        reg = result.body
        self.assertEqual(result.status, 201)
        self.assertRegex(reg["apiKey"], KEY_PATTERN)
        self.assertEqual(reg["keyPrefix"], reg["apiKey"][:17])
        self.assertEqual(reg["developer"]["email"], email.lower())
        self.assertEqual((reg["developer"]["name"], reg["developer"]["plan"]), ("Ada", "free"))
        self.assertIn("X-API-Key", reg["usage"])
        self.assertIn("only once", reg["warning"])
        self.assertIsNone(result.rate_limit, "registration sends no X-RateLimit-* headers")

    def test_register_refuses_a_malformed_email_naming_it(self) -> None:
        error = self.assertFails("invalid_parameter", 400, lambda: self.client().register("Ada", "not-an-address"))
        self.assertIn("email", error.message)

    def test_search_pages_until_has_more_is_false(self) -> None:
        client = self.keyed()
        pages = list(client.search_pages("water", limit=100))
        total = pages[0].body["total"]
        self.assertGreater(total, 100, "a query of several pages")
        self.assertEqual(len(pages), -(-total // 100))
        self.assertEqual([p.body["hasMore"] for p in pages], [True] * (len(pages) - 1) + [False])
        self.assertEqual([p.body["page"] for p in pages], list(range(1, len(pages) + 1)))
        ids = [w["id"] for p in pages for w in p.body["data"]]
        self.assertEqual(len(ids), total)
        self.assertEqual(len(set(ids)), total, "no entry twice across pages")
        used = [p.rate_limit.used if p.rate_limit else -1 for p in pages]
        self.assertEqual(used, list(range(1, len(pages) + 1)), "one request per page against the quota")
        words = list(client.search_all("water"))
        self.assertEqual([w["id"] for w in words], ids)

    def test_one_page_carries_the_envelope_and_rate_limit(self) -> None:
        result = self.keyed().search_words("omi", language="yo", limit=5)
        page = result.body
        self.assertEqual((page["page"], page["perPage"]), (1, 5))
        self.assertLessEqual(len(page["data"]), 5)
        self.assertTrue(all(w["language"] == "yo" for w in page["data"]))
        self.assertIsNotNone(result.rate_limit)
        assert result.rate_limit is not None
        self.assertEqual((result.rate_limit.limit, result.rate_limit.used, result.rate_limit.remaining), (1000, 1, 999))
        self.assertRegex(result.headers["content-range"], r"^items 0-\d+/\d+$")

    def test_scope_keeps_a_search_to_english_meanings(self) -> None:
        page = self.keyed().search_words("water", language="yo", scope="meaning", limit=10).body
        self.assertTrue(page["data"], str(page))
        self.assertTrue(all(w["matchType"] in ("meaning", "gloss") for w in page["data"]), str(page))

    def test_a_truncated_search_says_so_in_diagnostics(self) -> None:
        page = self.keyed().search_words("a", limit=1).body
        diagnostics = page.get("diagnostics", {})
        self.assertIs(diagnostics.get("truncated"), True, str(page))
        self.assertEqual(diagnostics.get("rankedLimit"), page["total"])

    def test_get_word_by_id_and_by_slug(self) -> None:
        client = self.keyed()
        first = client.search_words("omi", language="yo", limit=1).body["data"][0]
        by_id = client.get_word(first["id"]).body
        by_slug = client.get_word(first["slug"]).body
        self.assertEqual(by_id, by_slug)
        self.assertEqual((by_id["id"], by_id["slug"], by_id["headword"]), (first["id"], first["slug"], first["headword"]))
        self.assertTrue(by_id["source"]["name"] and by_id["licence"]["spdx"])

    def test_word_of_the_day_for_a_language_and_a_day(self) -> None:
        result = self.keyed().word_of_the_day(language="yo", date="2026-01-01")
        self.assertEqual((result.body["date"], result.body["language"]), ("2026-01-01", "yo"))
        self.assertEqual(result.body["entry"]["language"], "yo")
        today = self.keyed().word_of_the_day().body
        self.assertRegex(today["date"], r"^\d{4}-\d{2}-\d{2}$")

    def test_languages_and_stats_agree(self) -> None:
        client = self.keyed()
        languages = client.languages().body["data"]
        stats = client.stats().body
        active = {l["code"]: l["wordCount"] for l in languages if l["status"] == "active"}
        self.assertIn("ig", active)
        self.assertEqual(stats["totals"]["activeLanguages"], len(active))
        self.assertEqual(stats["totals"]["languages"], len(languages))
        self.assertEqual(stats["entriesByLanguage"], active)

    def test_openapi_description_keeps_the_contract_differences(self) -> None:
        doc = self.client().openapi().body
        self.assertEqual(doc["openapi"], "3.1.0")
        post = doc["paths"]["/api/v1/developers"]["post"]
        self.assertEqual(post["responses"]["201"]["content"]["application/json"]["schema"], {"type": "object"})
        self.assertEqual(post["responses"]["429"], {"$ref": "#/components/responses/QuotaExceeded"})
        self.assertNotIn("500", post["responses"])
        self.assertNotIn("keyName", post["requestBody"]["content"]["application/json"]["schema"]["properties"])
        page = next(p for p in doc["paths"]["/api/v1/words"]["get"]["parameters"] if p["name"] == "page")
        self.assertNotIn("maximum", page["schema"])

    def test_not_found(self) -> None:
        error = self.assertFails("not_found", 404, lambda: self.keyed().get_word("no-such-entry-zz"))
        self.assertEqual(error.message, "No entry matches that id or slug.")
        self.assertIsNotNone(error.rate_limit, "a failure after the key is resolved carries the rate-limit headers")

    def test_invalid_parameters_name_the_parameter(self) -> None:
        client = self.keyed()
        limit = self.assertFails("invalid_parameter", 400, lambda: client.search_words("a", limit=500))
        self.assertIn("'limit'", limit.message)
        # The page bound of 10,000 is the route's, absent from the OpenAPI description.
        page = self.assertFails("invalid_parameter", 400, lambda: client.search_words("a", page=10_001))
        self.assertIn("'page'", page.message)
        self.assertFails("unsupported_language", 400, lambda: client.search_words("a", language="zz"))

    def test_missing_and_invalid_keys(self) -> None:
        missing = self.assertFails("missing_api_key", 401, lambda: self.client().stats())
        self.assertEqual(missing.message, "No API key supplied. Send your key in the X-API-Key header. Get a free key at /developers.")
        invalid = self.assertFails("invalid_api_key", 401, lambda: self.client("svc_live_" + "0" * 40).stats())
        self.assertEqual(invalid.message, "That API key is not valid, has been revoked, or has expired.")
        self.assertIsNone(invalid.rate_limit)

    def test_quota_exceeded_waits_until_utc_midnight_then_raises(self) -> None:
        key = self.new_key()
        keyed = self.client(key)
        with ThreadPoolExecutor(max_workers=8) as pool:
            statuses = list(pool.map(lambda _: keyed.languages().status, range(1000)))
        self.assertEqual(statuses, [200] * 1000)

        refused = self.assertFails("quota_exceeded", 429, lambda: self.client(key, on_429="throw").languages())
        details = cast(Dict[str, Any], refused.details)
        self.assertEqual(details, {"plan": "free", "endpoint": "GET /api/v1/languages", "used": 1000, "limit": 1000})
        self.assertIn("00:00 UTC", refused.message)
        self.assertEqual(refused.rate_limit.remaining if refused.rate_limit else None, 0)

        waits = Waits()
        error = self.assertFails("quota_exceeded", 429, lambda: self.client(key, waits, max_waits=2).languages())
        self.assertEqual(len(waits.seconds), 2, "waited twice, retrying after each, then raised")
        to_midnight = seconds_until_utc_midnight(time.time())
        for seconds in waits.seconds:
            self.assertEqual(seconds, float(cast(int, error.retry_after_seconds)))
            self.assertLess(abs(seconds - to_midnight), 60, "Retry-After is the time to 00:00 UTC")
        self.assertEqual([(w.code, w.attempt) for w in waits.seen], [("quota_exceeded", 1), ("quota_exceeded", 2)])

        bounded = Waits()
        self.assertFails("quota_exceeded", 429, lambda: self.client(key, bounded, max_wait_seconds=60).languages())
        self.assertEqual(bounded.seconds, [], "a wait longer than max_wait_seconds is not made")

    def test_registration_rate_limited_waits_900_seconds(self) -> None:
        address = fresh_address()
        for n in range(5):
            self.client(address=address).register(f"Dev {n}", f"py-rl-{n}-{time.time_ns()}@example.org")

        def sixth(client: DictionaryClient) -> Callable[[], object]:
            return lambda: client.register("Dev 6", f"py-rl-6-{time.time_ns()}@example.org")

        refused = self.assertFails("rate_limited", 429, sixth(self.client(address=address, on_429="throw")))
        self.assertEqual(refused.retry_after_seconds, 900)
        self.assertIsNone(refused.rate_limit)
        self.assertIsNone(refused.details)

        waits = Waits()
        self.assertFails("rate_limited", 429, sixth(self.client(waits=waits, address=address, max_waits=1)))
        self.assertEqual(waits.seconds, [900.0])
        self.assertEqual(waits.seen[0].code, "rate_limited")


if __name__ == "__main__":
    unittest.main()
