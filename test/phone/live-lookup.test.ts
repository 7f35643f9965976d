import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createPhoneEngine, createPhoneLookup, loadShippedPhoneData, type LivePhoneLookup, type PhoneLookupOptions,
} from '../../src/validation/phone/index.js';
import { lineTypeAnswer, rateLimited, startTwilioLikeServer, TWILIO_INVALID_FIXTURE, type TwilioLikeServer } from './twilio-like-server.js';

const data = loadShippedPhoneData();
const US_NUMBER = '+12012010123'; // offline: fixed_or_mobile, allocated to BANDWIDTH.COM CLEC, LLC
const OFFLINE_CARRIER = 'BANDWIDTH.COM CLEC, LLC';

let server: TwilioLikeServer;
let clock: number;
let live: LivePhoneLookup;

beforeAll(async () => { server = await startTwilioLikeServer(); });
afterAll(async () => { await server.close(); });
beforeEach(() => {
  server.requests.length = 0;
  server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile', 'T-Mobile USA, Inc.') });
  clock = 1_000_000;
});
afterEach(async () => { await live?.close(); });

function engineWith(options: Partial<PhoneLookupOptions> = {}) {
  live = createPhoneLookup(
    { provider: 'twilio', accountSid: 'AC123', authToken: 'secret', baseUrl: server.baseUrl, timeoutMs: 300, ...options },
    { now: () => clock },
  )!;
  return createPhoneEngine({ data, liveLookup: live });
}
const validate = (engine: ReturnType<typeof engineWith>, input = US_NUMBER, budgetMs = 2000) =>
  engine.validate(input, { deadline: clock + budgetMs });

describe('Twilio Lookup v2 adapter against a local server', () => {
  it('When Twilio answers mobile, then type and carrier come from the live answer', async () =>
    expect(await validate(engineWith())).toMatchObject({ status: 'valid', type: 'mobile', carrier: 'T-Mobile USA, Inc.', carrier_source: 'live', e164: US_NUMBER }));

  it.each([
    ['landline', 'landline'], ['fixedVoip', 'voip'], ['nonFixedVoip', 'voip'], ['tollFree', 'toll_free'], ['premium', 'premium_rate'],
    ['sharedCost', 'shared_cost'], ['personal', 'personal'], ['pager', 'pager'], ['uan', 'uan'], ['voicemail', 'voicemail'],
    ['mobile', 'mobile'], ['unknown', 'fixed_or_mobile'], ['somethingNew', 'fixed_or_mobile'],
  ])('When Twilio says the line type is %s, then the type is %s', async (twilioType, type) => {
    server.respond = (number) => ({ body: lineTypeAnswer(number, twilioType) });
    expect((await validate(engineWith())).type).toBe(type);
  });

  it('When the look-up is made, then it asks the documented URL with Basic auth', async () => {
    await validate(engineWith());
    expect(server.requests[0]).toEqual({
      number: US_NUMBER, url: '/v2/PhoneNumbers/%2B12012010123?Fields=line_type_intelligence',
      authorization: `Basic ${Buffer.from('AC123:secret').toString('base64')}`,
    });
  });

  it('When the documented fixture comes back, then nonFixedVoip and its carrier name are used', async () => {
    server.respond = () => ({ body: lineTypeAnswer(US_NUMBER, 'nonFixedVoip', 'Twilio - SMS/MMS-SVR') });
    expect(await validate(engineWith())).toMatchObject({ type: 'voip', carrier: 'Twilio - SMS/MMS-SVR', carrier_source: 'live' });
  });

  it('When Twilio says the number is invalid, then the offline-valid number stays valid', async () => {
    server.respond = () => ({ body: TWILIO_INVALID_FIXTURE });
    expect(await validate(engineWith())).toMatchObject({ status: 'valid', type: 'fixed_or_mobile', carrier: OFFLINE_CARRIER, carrier_source: 'allocation' });
  });

  it('When line type intelligence reports an error code, then the offline answer stands', async () => {
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile', 'X', 60600) });
    expect(await validate(engineWith())).toMatchObject({ type: 'fixed_or_mobile', carrier_source: 'allocation' });
  });

  it('When Twilio gives a type but no carrier name, then the allocation carrier stays', async () => {
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'landline', null) });
    expect(await validate(engineWith())).toMatchObject({ type: 'landline', carrier: OFFLINE_CARRIER, carrier_source: 'allocation' });
  });

  it('When the number is invalid offline, then no live look-up is made', async () => {
    expect(await validate(engineWith(), '+1 201')).toMatchObject({ status: 'invalid', reason: 'too_short' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('Twilio failures fall back to the offline answer', () => {
  const offline = { status: 'valid', type: 'fixed_or_mobile', carrier: OFFLINE_CARRIER, carrier_source: 'allocation' };

  it.each([[500], [502], [503], [404], [401], [403]])('When Twilio answers HTTP %i, then the offline answer stands', async (status) => {
    server.respond = () => ({ status, body: { code: 20000 + status, message: 'error', status } });
    expect(await validate(engineWith())).toMatchObject(offline);
  });

  it('When Twilio answers something that is not JSON, then the offline answer stands', async () => {
    server.respond = () => ({ text: '<html>oops</html>' });
    expect(await validate(engineWith())).toMatchObject(offline);
  });

  it('When Twilio answers JSON of another shape, then the offline answer stands', async () => {
    server.respond = () => ({ body: { hello: 'world' } });
    expect(await validate(engineWith())).toMatchObject(offline);
  });

  it('When Twilio is slower than the timeout, then the offline answer comes in about the timeout', async () => {
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile'), delayMs: 5000 });
    const started = Date.now();
    expect(await validate(engineWith({ timeoutMs: 100 }))).toMatchObject(offline);
    // Well before Twilio's answer (5 s), with room for a loaded machine's delays.
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('When the request budget is shorter than the timeout, then the budget cuts the call', async () => {
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile'), delayMs: 5000 });
    const started = Date.now();
    expect(await validate(engineWith({ timeoutMs: 5000 }), US_NUMBER, 150)).toMatchObject(offline);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('When the deadline is not a number, then the timeout alone bounds the call', async () => {
    const engine = engineWith();
    expect(await engine.validate(US_NUMBER, { deadline: Number.NaN })).toMatchObject({ carrier_source: 'live' });
  });

  it('When the budget is already spent, then no call is made', async () => {
    expect(await validate(engineWith(), US_NUMBER, 5)).toMatchObject(offline);
    expect(server.requests).toHaveLength(0);
  });

  it('When nothing listens at the base URL, then the offline answer stands', async () => {
    const gone = await startTwilioLikeServer();
    const baseUrl = gone.baseUrl;
    await gone.close();
    expect(await validate(engineWith({ baseUrl }))).toMatchObject(offline);
  });

  it('When the engine closes during a slow call, then the call is abandoned and the offline answer comes back', async () => {
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile'), delayMs: 2000 });
    const engine = engineWith({ timeoutMs: 5000 });
    const pending = validate(engine);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await engine.close();
    expect(await pending).toMatchObject(offline);
  });

  it('When the engine is closed, then later validations stay offline', async () => {
    const engine = engineWith();
    await engine.close();
    expect(await validate(engine)).toMatchObject(offline);
    expect(server.requests).toHaveLength(0);
  });
});

describe('Rate limits, cache and circuit breaker', () => {
  it('When Twilio answers 429 with Retry-After, then no call goes out until that time', async () => {
    server.respond = () => rateLimited('3');
    const engine = engineWith();
    expect(await validate(engine)).toMatchObject({ carrier_source: 'allocation' });
    clock += 2_900;
    expect(await validate(engine, '+12012010124')).toMatchObject({ carrier_source: 'allocation' });
    expect(server.requests).toHaveLength(1);
    clock += 200;
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile') });
    expect(await validate(engine, '+12012010124')).toMatchObject({ carrier_source: 'live' });
  });

  it('When Retry-After is an HTTP date, then the pause lasts until that date', async () => {
    server.respond = () => rateLimited(new Date(clock + 10_000).toUTCString());
    const engine = engineWith();
    await validate(engine);
    clock += 9_000;
    await validate(engine);
    expect(server.requests).toHaveLength(1);
    clock += 1_500;
    await validate(engine);
    expect(server.requests).toHaveLength(2);
  });

  it('When a 429 has no Retry-After, then a short default pause applies', async () => {
    server.respond = () => rateLimited();
    const engine = engineWith({ defaultRetryAfterMs: 500 });
    await validate(engine);
    await validate(engine);
    clock += 600;
    await validate(engine);
    expect(server.requests).toHaveLength(2);
  });

  it('When Retry-After asks for a day, then the pause is capped', async () => {
    server.respond = () => rateLimited('86400');
    const engine = engineWith({ maxRetryAfterMs: 60_000 });
    await validate(engine);
    clock += 60_001;
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile') });
    expect(await validate(engine)).toMatchObject({ carrier_source: 'live' });
  });

  it('When rate limited, then the circuit does not count it as a failure', async () => {
    server.respond = () => rateLimited('1');
    const engine = engineWith({ breakerFailureThreshold: 1 });
    await validate(engine);
    clock += 1_100;
    expect(live.circuitState).toBe('closed');
  });

  it('When the same number is asked twice, then Twilio is called once', async () => {
    const engine = engineWith();
    await validate(engine);
    expect(await validate(engine)).toMatchObject({ type: 'mobile', carrier_source: 'live' });
    expect(server.requests).toHaveLength(1);
  });

  it('When the cached answer is older than its TTL, then Twilio is asked again', async () => {
    const engine = engineWith({ cacheTtlMs: 60_000 });
    await validate(engine);
    clock += 61_000;
    await validate(engine);
    expect(server.requests).toHaveLength(2);
  });

  it('When the cache is full, then the least recently used number leaves', async () => {
    const engine = engineWith({ cacheMaxEntries: 1 });
    await validate(engine, '+12012010123');
    await validate(engine, '+12012010124');
    await validate(engine, '+12012010123');
    expect(server.requests).toHaveLength(3);
  });

  it('When a look-up failed, then it is not cached', async () => {
    server.respond = () => ({ status: 500 });
    const engine = engineWith();
    await validate(engine);
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile') });
    expect(await validate(engine)).toMatchObject({ carrier_source: 'live' });
  });

  it('When failures reach the threshold, then the circuit opens and calls stop', async () => {
    server.respond = () => ({ status: 503 });
    const engine = engineWith({ breakerFailureThreshold: 3, breakerCooldownMs: 10_000 });
    for (let i = 0; i < 5; i++) await validate(engine, `+1201201012${i}`);
    expect(server.requests).toHaveLength(3);
    expect(live.circuitState).toBe('open');
  });

  it('When the cooldown has passed, then one trial call goes out and its success closes the circuit', async () => {
    server.respond = () => ({ status: 503 });
    const engine = engineWith({ breakerFailureThreshold: 2, breakerCooldownMs: 10_000 });
    await validate(engine, '+12012010121');
    await validate(engine, '+12012010122');
    clock += 10_001;
    expect(live.circuitState).toBe('half_open');
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile') });
    expect(await validate(engine, '+12012010123')).toMatchObject({ carrier_source: 'live' });
    expect(live.circuitState).toBe('closed');
  });

  it('When the trial call fails, then the circuit opens again', async () => {
    server.respond = () => ({ status: 503 });
    const engine = engineWith({ breakerFailureThreshold: 2, breakerCooldownMs: 10_000 });
    await validate(engine, '+12012010121');
    await validate(engine, '+12012010122');
    clock += 10_001;
    await validate(engine, '+12012010123');
    expect(live.circuitState).toBe('open');
    expect(server.requests).toHaveLength(3);
  });

  it('When the circuit is half open, then only one trial is in flight at a time', async () => {
    server.respond = () => ({ status: 503 });
    const engine = engineWith({ breakerFailureThreshold: 1, breakerCooldownMs: 1_000 });
    await validate(engine, '+12012010121');
    clock += 1_001;
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile'), delayMs: 100 });
    const [first, second] = await Promise.all([validate(engine, '+12012010122'), validate(engine, '+12012010123')]);
    expect([first.carrier_source, second.carrier_source]).toEqual(['live', 'allocation']);
  });

  it('When timeouts repeat, then they open the circuit like other failures', async () => {
    server.respond = (number) => ({ body: lineTypeAnswer(number, 'mobile'), delayMs: 1000 });
    const engine = engineWith({ timeoutMs: 30, breakerFailureThreshold: 2 });
    await validate(engine, '+12012010121');
    await validate(engine, '+12012010122');
    expect(live.circuitState).toBe('open');
  });
});

describe('createPhoneLookup from configuration values', () => {
  it('When the provider is none, then there is no live look-up', () => expect(createPhoneLookup({ provider: 'none' })).toBeNull());
  it('When twilio has no credentials, then it refuses to start', () =>
    expect(() => createPhoneLookup({ provider: 'twilio', accountSid: 'AC1' })).toThrow(/TWILIO_AUTH_TOKEN/));
  it('When the provider is unknown, then it refuses to start', () =>
    expect(() => createPhoneLookup({ provider: 'telnyx' as 'twilio' })).toThrow(/unknown phone look-up provider/));
  it('When twilio has credentials, then the live look-up names its provider', () =>
    expect(createPhoneLookup({ provider: 'twilio', accountSid: 'AC1', authToken: 't' })?.provider).toBe('twilio'));
});
