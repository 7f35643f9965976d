/** GET /metrics: Prometheus' text format, by route pattern, with the problems, the modules and the jobs' states. */
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService } from '../support/service.js';

describe('metrics', () => {
  const service = useTestService(testDatabases[0]);
  const guarded = useTestService(testDatabases[0], { METRICS_TOKEN: 'scraper-token-0123456789' });

  it('When the service has answered requests, then /metrics counts them by route pattern, with problems and modules', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    await s.post('/v1/validate', { address: '6007 Applegate Ln, Louisville, KY 40219', phone: '+1 502 713 4410' }, { key: apiKey });
    await s.post('/v1/validate', { email: 'a@example.com' }, { key: 'cv_live_bad' });
    await s.get('/v1/batches/batch_missing', apiKey);

    const res = await s.get('/metrics');
    const text = await res.text();

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toContain('http_requests_total{route="/v1/validate",method="POST",status="200"} 1');
    expect(text).toContain('http_requests_total{route="/v1/batches/:id",method="GET",status="404"} 1');
    expect(text).toContain('http_problems_total{type="unauthorized"} 1');
    expect(text).toContain('validate_modules_total{module="address"} 1');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="5",route="\/v1\/validate"\} 2/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
    expect(text).toContain('# TYPE bulk_jobs gauge');
    expect(text).not.toContain('batch_missing');
  });

  it('When METRICS_TOKEN is set, then /metrics needs it', async () => {
    const s = guarded();
    const without = await s.get('/metrics');
    const withToken = await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer scraper-token-0123456789' } });

    expect(without.status).toBe(401);
    await problemOf(without);
    expect(withToken.status).toBe(200);
  });
});
