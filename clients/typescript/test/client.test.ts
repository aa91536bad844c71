// The client's own rules, against FakeLadderd: retries, timeouts, the admin
// token, traceparent, readiness, and the call surface.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import {
  Arbiter,
  Client,
  DEFAULT_TIMEOUT_MS,
  DeadlineExceededError,
  InvalidArgumentError,
  LadderError,
  LimitExceededError,
  NotFoundError,
  Outcome,
  OverloadedError,
  RPCS,
  UnavailableError,
  type Method,
} from 'ladderd';
import { FakeLadderd, Refusal } from 'ladderd/testing';

const SHED = new Refusal('RESOURCE_EXHAUSTED', 'ladderd is at its limit of 64 requests in flight (server.max_concurrent_requests); retry with backoff');
const DOWN = new Refusal('UNAVAILABLE', 'the session store did not answer; retry');
const EXECUTE = { outcome: Outcome.EXECUTE, targetId: 'a' };

let fake: FakeLadderd;
beforeEach(async () => {
  delete process.env.LADDERD_ADMIN_TOKEN;
  delete process.env.LADDER_ADMIN__TOKEN_FILE;
  delete process.env.LADDERD_ADDRESS;
  fake = await new FakeLadderd().start();
});
afterEach(() => fake.stop());

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

for (const [name, refusal] of [
  ['overloaded', SHED],
  ['unavailable', DOWN],
] as const) {
  test(`a call safe to repeat is retried after ${name}`, async () => {
    fake.script('decide', refusal, { times: 2 });
    fake.script('decide', EXECUTE);
    const client = new Client({ address: fake.address });
    assert.equal((await client.decide({ sessionId: 's', input: 'a' })).targetId, 'a');
    assert.equal(fake.requests('decide').length, 3);
    client.close();
  });
}

test('retries stop after maxAttempts with the last error', async () => {
  fake.script('getRollout', SHED, { times: Infinity });
  const client = new Client({ address: fake.address, maxAttempts: 2 });
  await assert.rejects(client.getRollout(), OverloadedError);
  assert.equal(fake.requests('getRollout').length, 2);
  client.close();
});

for (const method of ['enrich', 'recordOutcome'] as const) {
  test(`${method} is never repeated`, async () => {
    fake.script(method, DOWN);
    const client = new Client({ address: fake.address });
    await assert.rejects(client[method]({ sessionId: 's' }), UnavailableError);
    assert.equal(fake.requests(method).length, 1);
    client.close();
  });
}

for (const [refusal, error] of [
  [new Refusal('RESOURCE_EXHAUSTED', 'input: 4097 bytes is over the limit of 4096'), LimitExceededError],
  [new Refusal('INVALID_ARGUMENT', 'options.candidates.id: required'), InvalidArgumentError],
  [new Refusal('NOT_FOUND', 'session "s" not found (expired or never seen)'), NotFoundError],
] as const) {
  test(`${error.name} is not retried and names its field`, async () => {
    fake.script('decide', refusal);
    const client = new Client({ address: fake.address });
    const err = await client.decide({ sessionId: 's' }).catch((e: unknown) => e);
    assert.ok(err instanceof error, String(err));
    assert.equal(fake.requests('decide').length, 1);
    if (err instanceof LimitExceededError || err instanceof InvalidArgumentError) assert.equal(err.field, refusal.message.split(':')[0]);
    client.close();
  });
}

test('the timeout covers the retries', async () => {
  fake.script('decide', DOWN, { delayMs: 150, times: Infinity });
  const client = new Client({ address: fake.address, timeoutMs: 250, maxAttempts: 10 });
  const started = Date.now();
  const err = await client.decide({ sessionId: 's' }).catch((e: unknown) => e);
  assert.ok(err instanceof UnavailableError || err instanceof DeadlineExceededError, String(err));
  assert.ok(Date.now() - started < 600);
  assert.ok(fake.requests('decide').length <= 2);
  client.close();
});

test('a deadline is never retried', async () => {
  fake.script('decide', EXECUTE, { delayMs: 300 });
  const client = new Client({ address: fake.address, timeoutMs: 50 });
  await assert.rejects(client.decide({ sessionId: 's' }), DeadlineExceededError);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(fake.requests('decide').length, 1);
  client.close();
});

test('an aborted signal stops the call and is not retried', async () => {
  fake.script('decide', DOWN, { times: Infinity, delayMs: 20 });
  const client = new Client({ address: fake.address, maxAttempts: 10 });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 40);
  await assert.rejects(client.decide({ sessionId: 's' }, { signal: controller.signal }), (e: unknown) => e instanceof LadderError && e.codeName === 'CANCELLED');
  const seen = fake.requests('decide').length;
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(fake.requests('decide').length, seen);
  client.close();
});

test('the default timeout is finite and above the llm timeout', () => {
  assert.ok(DEFAULT_TIMEOUT_MS > 800 && DEFAULT_TIMEOUT_MS < 5000);
  assert.throws(() => new Client({ timeoutMs: 0 }), RangeError);
});

test('the admin token goes with control calls only', async () => {
  const client = new Client({ address: fake.address, adminToken: 't0ken-0123456789' });
  await client.decide({ sessionId: 's', input: 'hi' });
  await client.getSession({ sessionId: 's' });
  const decide = fake.calls.find((c) => c.method === 'decide')!;
  const get = fake.calls.find((c) => c.method === 'getSession')!;
  assert.equal(decide.metadata.authorization, undefined);
  assert.equal(get.metadata.authorization, 'Bearer t0ken-0123456789');
  client.close();
});

test("the admin token is read from the daemon's token file variable", async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'ladderd-')), 'admin-token');
  writeFileSync(file, '  from-the-file-0123456789\n');
  process.env.LADDER_ADMIN__TOKEN_FILE = file;
  const client = new Client({ address: fake.address });
  await client.resetRollout({ note: 'checked' });
  assert.equal(fake.calls.at(-1)!.metadata.authorization, 'Bearer from-the-file-0123456789');
  client.close();
});

test('traceparent and extra metadata are passed through', async () => {
  const tp = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const client = new Client({ address: fake.address });
  await client.clarify({ sessionId: 's' }, { traceparent: tp, headers: { 'x-app': '1' } });
  assert.equal(fake.calls.at(-1)!.metadata.traceparent, tp);
  assert.equal(fake.calls.at(-1)!.metadata['x-app'], '1');
  client.close();
});

test('a decide gets a turnId of its own that its retries reuse', async () => {
  fake.script('decide', new Refusal('UNAVAILABLE', 'the session store did not answer; retry'));
  fake.script('decide', { outcome: Outcome.EXECUTE, targetId: 'a' });
  const seen = fake.requests('decide').length;
  const request = { sessionId: 's', input: 'a' };
  const client = new Client({ address: fake.address });
  await client.decide(request);
  await client.decide(request);
  await client.decide({ sessionId: 's', turnId: 'the-apps-own', input: 'a' });
  client.close();
  const ids = fake.requests('decide').slice(seen).map((r) => r.turnId);
  assert.ok(ids[0] && ids[1] === ids[0], 'the retry reuses the call’s turnId');
  assert.ok(ids[2] && ids[2] !== ids[0], 'the next call gets another');
  assert.equal(ids[3], 'the-apps-own');
  assert.equal((request as { turnId?: string }).turnId, undefined, 'the app’s request is left as it was');
});

test('the fake answers a repeated turn as it did and counts it once', async () => {
  fake.script('decide', { outcome: Outcome.EXECUTE, targetId: 'a' });
  const client = new Client({ address: fake.address });
  const first = await client.decide({ sessionId: 'repeated', turnId: 't1', input: 'a' });
  const again = await client.decide({ sessionId: 'repeated', turnId: 't1', input: 'a' });
  const other = await client.decide({ sessionId: 'repeated', turnId: 't1', input: 'b' });
  assert.deepEqual(again, first);
  assert.equal(other.outcome, Outcome.ESCAPE, 'another input: a new turn, answered by default');
  assert.equal((await client.getSession({ sessionId: 'repeated' })).turnCount, 2n);
  client.close();
});

test('waitUntilReady waits for SERVING, not for an open port', async () => {
  fake.setServing(false);
  const client = new Client({ address: fake.address });
  // The port is open and the daemon says NOT_SERVING: never ready. Each
  // probe waits 500 ms at most; on a loaded machine every probe may time
  // out before its answer, so the give-up may name the deadline rather
  // than NOT_SERVING: either is a refusal to call it ready.
  await assert.rejects(
    client.waitUntilReady(1500),
    (e: unknown) => e instanceof UnavailableError && (e.details.includes('NOT_SERVING') || e.details.includes('not serving after')),
  );
  fake.setServing(true);
  await client.waitUntilReady(2000);
  client.close();
});

test('waitUntilReady gives up on an address nobody serves', async () => {
  const client = new Client({ address: `127.0.0.1:${await freePort()}` });
  const started = Date.now();
  await assert.rejects(client.waitUntilReady(500), (e: unknown) => e instanceof UnavailableError && e.details.includes('not serving after'));
  assert.ok(Date.now() - started < 2000);
  client.close();
});

test('waitUntilReady sees a daemon that starts late', async () => {
  const port = await freePort();
  const client = new Client({ address: `127.0.0.1:${port}` });
  let ready = false;
  const waiting = client.waitUntilReady(5000).then(() => (ready = true));
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(ready, false);
  const late = await new FakeLadderd({ port }).start();
  try {
    await waiting;
  } finally {
    client.close();
    await late.stop();
  }
});

test('every rpc has a method on the client', () => {
  const names = Object.values(RPCS).map((r) => r.name).sort();
  assert.deepEqual(names, Object.values(Arbiter.method).map((m) => m.name).sort());
  for (const [method, rpc] of Object.entries(RPCS) as [Method, (typeof RPCS)[Method]][]) {
    const m = Arbiter.method[method];
    assert.ok(m, method);
    assert.equal(m.input.typeName, rpc.request.typeName);
    assert.equal(m.output.typeName, rpc.response.typeName);
    assert.equal(typeof Client.prototype[method], 'function');
  }
});

test('errors keep the status and the daemon’s message', async () => {
  fake.script('extract', new Refusal('UNIMPLEMENTED', 'no'));
  const client = new Client({ address: fake.address });
  const err = await client.extract({ sessionId: 's' }).catch((e: unknown) => e);
  assert.ok(err instanceof LadderError && err.constructor === LadderError);
  assert.equal(err.codeName, 'UNIMPLEMENTED');
  assert.equal(err.method, 'Extract');
  client.close();
});

test('a token file that cannot be read is named', () => {
  process.env.LADDER_ADMIN__TOKEN_FILE = join(tmpdir(), 'ladderd-no-such-token-file');
  assert.throws(() => new Client({ address: '127.0.0.1:1' }), /\$LADDER_ADMIN__TOKEN_FILE names .*no-such-token-file/);
});
