// The worker's request-path counters as metric families: counts by route and status, cumulative duration
// buckets in seconds, admissions and refusals, leases; and their Prometheus text beside another worker's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { WorkerCounters } from '../../services/api/metrics/worker-stats.ts';
import { exposition } from '../../services/shared/metrics/exposition.ts';
import { withWorker } from '../../services/shared/metrics/families.ts';
import { metricFamily } from '../../services/shared/metrics/protocol.ts';
import { parseExposition, total } from '../support/prometheus.ts';

describe('WorkerCounters', () => {
  it('WorkerCounters - families hold counts by route and status, cumulative buckets, admissions, refusals and leases', async () => {
    const c = new WorkerCounters();
    c.request('GET /api/v1/stats', 200, 0.05);
    c.request('GET /api/v1/stats', 200, 3);
    c.request('GET /api/v1/stats', 429, 0.2);
    c.request('GET /api/v1/words', 499, 4000);
    c.admitted('GET /api/v1/stats', 'held');
    c.admitted('GET /api/v1/stats', 'asked');
    c.refused('GET /api/v1/stats', 'quota_exceeded');
    c.lease('granted', 1.2);
    c.lease('failed', 1000);
    const families = c.families();
    for (const family of families) assert.ok(metricFamily.safeParse(family).success, `${family.name} fits the wire schema`);

    const text = await exposition([withWorker(families, 'api-0'), withWorker(families, 'api-1')]);
    const s = parseExposition(text);
    assert.equal(total(s, 'dict_http_requests_total', { route: 'GET /api/v1/stats', status: '200', worker: 'api-0' }), 2, text);
    assert.equal(total(s, 'dict_http_requests_total', { route: 'GET /api/v1/stats', status: '200' }), 4, 'both workers side by side');
    assert.equal(total(s, 'dict_http_requests_total', { status: '499' }), 2);
    const bucket = (le: string) => total(s, 'dict_http_request_duration_seconds_bucket', { route: 'GET /api/v1/stats', le, worker: 'api-0' });
    assert.deepEqual(['0.0001', '0.00025', '0.0025', '0.005', '+Inf'].map(bucket), [1, 2, 2, 3, 3]);
    assert.equal(total(s, 'dict_http_request_duration_seconds_bucket', { route: 'GET /api/v1/words', le: '2.5', worker: 'api-0' }), 0);
    assert.equal(total(s, 'dict_http_request_duration_seconds_bucket', { route: 'GET /api/v1/words', le: '+Inf', worker: 'api-0' }), 1);
    assert.ok(Math.abs(total(s, 'dict_http_request_duration_seconds_sum', { route: 'GET /api/v1/stats', worker: 'api-0' }) - 0.00325) < 1e-9);
    assert.equal(total(s, 'dict_http_request_duration_seconds_count', { route: 'GET /api/v1/stats', worker: 'api-0' }), 3);
    assert.deepEqual(
      s.filter((x) => x.name === 'dict_admissions_total' && x.labels.worker === 'api-0').map((x) => [x.labels.result, x.labels.reason, x.value]),
      [['admitted', 'held', 1], ['admitted', 'asked', 1], ['refused', 'quota_exceeded', 1]],
    );
    assert.equal(total(s, 'dict_lease_requests_total', { outcome: 'failed', worker: 'api-1' }), 1);
    assert.equal(total(s, 'dict_lease_request_duration_seconds_bucket', { le: '0.0025', worker: 'api-1' }), 1);
    assert.match(text, /^# TYPE dict_http_request_duration_seconds histogram$/m);
  });
});
