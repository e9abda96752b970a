"""The 429 waiting rule: Retry-After when sent, else 00:00 UTC for quota_exceeded and 900 s for rate_limited."""
from __future__ import annotations

import unittest
from datetime import datetime, timezone

from african_dictionary import RATE_LIMITED_WAIT_SECONDS, retry_after_seconds, seconds_until_utc_midnight, wait_after_429

NOW = datetime(2026, 11, 27, 23, 0, 0, tzinfo=timezone.utc).timestamp()


class WaitRuleTest(unittest.TestCase):
    def test_quota_exceeded_without_retry_after_waits_until_utc_midnight(self) -> None:
        self.assertEqual(wait_after_429("quota_exceeded", None, NOW), 3600.0)

    def test_rate_limited_without_retry_after_waits_the_900_second_window(self) -> None:
        self.assertEqual(wait_after_429("rate_limited", None, NOW), float(RATE_LIMITED_WAIT_SECONDS))
        self.assertEqual(RATE_LIMITED_WAIT_SECONDS, 900)

    def test_retry_after_in_seconds_wins(self) -> None:
        self.assertEqual(wait_after_429("quota_exceeded", "120", NOW), 120.0)
        self.assertEqual(wait_after_429("rate_limited", " 900 ", NOW), 900.0)

    def test_retry_after_as_an_http_date(self) -> None:
        self.assertEqual(retry_after_seconds("Sat, 28 Nov 2026 00:00:00 GMT", NOW), 3600.0)
        self.assertEqual(retry_after_seconds("Fri, 27 Nov 2026 22:00:00 GMT", NOW), 0.0)

    def test_unreadable_retry_after_falls_back_to_the_rule(self) -> None:
        self.assertIsNone(retry_after_seconds("soon", NOW))
        self.assertIsNone(retry_after_seconds("", NOW))
        self.assertEqual(wait_after_429("rate_limited", "soon", NOW), 900.0)

    def test_midnight_is_a_whole_day_away_at_midnight(self) -> None:
        midnight = datetime(2026, 11, 28, tzinfo=timezone.utc).timestamp()
        self.assertEqual(seconds_until_utc_midnight(midnight), 86400.0)
        self.assertEqual(seconds_until_utc_midnight(midnight - 1), 1.0)


if __name__ == "__main__":
    unittest.main()
