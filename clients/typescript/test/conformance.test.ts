// clients/conformance/cases.json, each case against the real daemon and
// against FakeLadderd.

import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { equals, fromJson, toJson, type JsonValue } from '@bufbuild/protobuf';
import * as ladderd from 'ladderd';
import { Client, LadderError, RPCS, type Method } from 'ladderd';
import { FakeLadderd } from 'ladderd/testing';
import { Daemon, STRICT } from './daemon.js';

interface Expect {
  response?: Record<string, JsonValue>;
  error?: { code: string; class: string; field?: string; message?: string; message_contains?: string };
  attempts?: number;
  turn_count?: number;
}
interface Turn {
  request: Record<string, JsonValue>;
  expect?: Expect;
}
interface Case extends Turn {
  name: string;
  call: string;
  expect: Expect;
  before?: Turn[];
  timeout_ms?: number;
  fake?: { delay_ms?: number };
  off_loopback?: boolean;
  admin_token?: 'none' | 'environment';
  pending_on_daemon?: string;
  lose_first_answer?: boolean;
  max_attempts?: number;
}

const here = dirname(fileURLToPath(import.meta.url));
const CASES_FILE = process.env.LADDERD_CONFORMANCE_CASES ?? join(here, '..', '..', '..', 'conformance', 'cases.json');
const CASES: Case[] = JSON.parse(readFileSync(CASES_FILE, 'utf8')).cases;
const RUN = randomUUID().slice(0, 8);
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const ADMIN_TOKEN = randomBytes(16).toString('hex');

/** get_session -> getSession */
const methodOf = (call: string) => call.replace(/_(.)/g, (_, c: string) => c.toUpperCase()) as Method;

/** {"$repeat": N, "item": {...}} in a list stands for N items, "{i}" in their
 * strings replaced by 0 .. N-1. */
function expand(value: JsonValue): JsonValue {
  if (Array.isArray(value)) {
    return value.flatMap((v) => {
      if (v && typeof v === 'object' && !Array.isArray(v) && '$repeat' in v) {
        const text = JSON.stringify(v.item);
        return Array.from({ length: Number(v.$repeat) }, (_, i) => JSON.parse(text.replaceAll('{i}', String(i))));
      }
      return [expand(v)];
    });
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
  return value;
}

function mismatch(want: JsonValue, have: JsonValue | undefined, path = ''): string | undefined {
  if (want && typeof want === 'object' && !Array.isArray(want)) {
    if (!have || typeof have !== 'object' || Array.isArray(have)) return `${path || 'response'}: ${JSON.stringify(have)}, expected ${JSON.stringify(want)}`;
    for (const [k, v] of Object.entries(want)) {
      const m = mismatch(v, (have as Record<string, JsonValue>)[k], path ? `${path}.${k}` : k);
      if (m) return m;
    }
    return undefined;
  }
  return JSON.stringify(want) === JSON.stringify(have) ? undefined : `${path}: ${JSON.stringify(have)}, expected ${JSON.stringify(want)}`;
}

interface Target {
  kind: 'daemon' | 'fake';
  address: string;
  fake?: FakeLadderd;
}

/** The request `got` as the case wrote it: without the turnId the client
 * gives a Decide that has none. */
function asSent<T>(got: T, sent: T): T {
  const g = got as { turnId?: string };
  if ((sent as { turnId?: string }).turnId === '' && g.turnId) return { ...got, turnId: '' };
  return got;
}

/** A TCP proxy in front of a target that loses one answer: once armed, the
 * first response it sees (an HTTP/2 HEADERS frame on a stream: the target
 * has read the request and answered) is not passed on, and both
 * connections are cut, as a network that fails after the request arrived.
 * Everything else goes through unchanged. */
class LosingProxy {
  armed = false;
  cuts = 0;
  private constructor(
    private readonly server: Server,
    readonly address: string,
  ) {}

  static async start(upstream: string): Promise<LosingProxy> {
    const at = upstream.lastIndexOf(':');
    const [host, port] = [upstream.slice(0, at), Number(upstream.slice(at + 1))];
    let proxy: LosingProxy | undefined;
    const server = createServer((client: Socket) => {
      const target = connect(port, host);
      const cut = () => {
        client.destroy();
        target.destroy();
      };
      client.on('error', cut).on('close', cut);
      target.on('error', cut).on('close', cut);
      client.pipe(target);
      let pending = Buffer.alloc(0);
      target.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 9) {
          const size = 9 + pending.readUIntBE(0, 3);
          if (pending.length < size) return;
          const stream = pending.readUInt32BE(5) & 0x7fffffff;
          if (pending[3] === 1 && stream !== 0 && proxy!.armed) {
            proxy!.armed = false;
            proxy!.cuts++;
            cut();
            return;
          }
          client.write(pending.subarray(0, size));
          pending = pending.subarray(size);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port: local } = server.address() as { port: number };
    proxy = new LosingProxy(server, `127.0.0.1:${local}`);
    return proxy;
  }

  close(): void {
    this.server.close();
  }
}

async function runCase(t: TestContext, c: Case, target: Target): Promise<void> {
  const method = methodOf(c.call);
  const rpc = RPCS[method];
  const prefix = `ts-${RUN}-${target.kind}`;
  const turns: Turn[] = [...(c.before ?? []), c];
  const requests = turns.map((turn) => {
    const body = expand(structuredClone(turn.request)) as Record<string, JsonValue>;
    if (body.session_id) body.session_id = `${prefix}-${body.session_id}`;
    return fromJson(rpc.request, body);
  });
  const seenBefore = target.fake?.calls.length ?? 0;
  if (target.fake) {
    turns.forEach((turn, i) => {
      const response = turn.expect?.response;
      target.fake!.script(method, response === undefined ? undefined : (fromJson(rpc.response, response) as never), {
        delayMs: turn === c ? (c.fake?.delay_ms ?? 0) : 0,
        when: (r) => equals(rpc.request, asSent(r, requests[i]) as never, requests[i] as never),
      });
    });
  }
  delete process.env.LADDERD_ADMIN_TOKEN;
  delete process.env.LADDER_ADMIN__TOKEN_FILE;
  if (c.admin_token === 'environment') process.env.LADDERD_ADMIN_TOKEN = ADMIN_TOKEN;
  // The case's own call loses its first answer on the way back.
  const proxy = c.lose_first_answer ? await LosingProxy.start(target.address) : undefined;
  const client = new Client({ address: proxy?.address ?? target.address, maxAttempts: c.max_attempts });
  delete process.env.LADDERD_ADMIN_TOKEN;
  const call = client[method].bind(client) as (r: unknown, o: object) => Promise<unknown>;
  try {
    for (const [i, turn] of turns.entries()) {
      let result: unknown;
      if (proxy && turn === c) proxy.armed = true;
      try {
        result = await call(requests[i], { timeoutMs: c.timeout_ms, traceparent: TRACEPARENT });
      } catch (e) {
        assert.ok(e instanceof LadderError, `${c.name}: ${e}`);
        assert.equal(turn, c, `${c.name}: a turn before failed: ${e}`);
        const want = c.expect.error;
        assert.ok(want, `${c.name}: unexpected ${e}`);
        assert.equal(e.constructor.name, want.class, `${c.name}: ${e}`);
        assert.ok(e instanceof (ladderd as unknown as Record<string, new (...a: never[]) => unknown>)[want.class]);
        assert.equal(e.codeName, want.code, `${c.name}: ${e}`);
        if (want.field !== undefined) assert.equal((e as { field?: string }).field, want.field);
        if (want.message !== undefined) assert.equal(e.details, want.message);
        if (want.message_contains !== undefined) assert.ok(e.details.includes(want.message_contains), `${c.name}: ${e}`);
        continue;
      }
      assert.equal(turn.expect?.error, undefined, `${c.name}: succeeded, expected ${JSON.stringify(turn.expect?.error)}`);
      const have = toJson(rpc.response, result as never, { useProtoFieldName: true, alwaysEmitImplicit: true });
      const want = turn.expect?.response ?? {};
      if (c.pending_on_daemon && turn === c && target.kind === 'daemon') {
        if ((result as { followUp?: unknown }).followUp === undefined) {
          t.todo(c.pending_on_daemon);
          return;
        }
        assert.notEqual(mismatch(want, have), undefined, `${c.name} passes against the daemon now: delete its pending_on_daemon line`);
      }
      const m = mismatch(want, have);
      assert.equal(m, undefined, `${c.name}: ${m}\n${JSON.stringify(have)}`);
    }
  } finally {
    client.close();
    proxy?.close();
  }
  if (proxy) assert.equal(proxy.cuts, 1, `${c.name}: the answer was not lost`);
  if (c.expect.turn_count !== undefined) {
    const control = new Client({ address: target.address });
    try {
      const state = await control.getSession({ sessionId: (requests.at(-1) as { sessionId: string }).sessionId });
      assert.equal(Number(state.turnCount), c.expect.turn_count, `${c.name}: the session advanced ${state.turnCount} turns`);
    } finally {
      control.close();
    }
  }
  if (target.fake) {
    let got = target.fake.calls.slice(seenBefore);
    if (c.expect.turn_count !== undefined) got = got.filter((call) => call.method === method);
    const sent = got.map((_, i) => requests[Math.min(i, requests.length - 1)]);
    got.forEach((call, i) => assert.ok(equals(rpc.request, asSent(call.request, sent[i]) as never, sent[i] as never), `${c.name}: the fake got another request`));
    if (method === 'decide') {
      const ids = got.map((call) => (call.request as { turnId: string }).turnId);
      assert.ok(ids.every(Boolean), `${c.name}: a Decide went without a turnId`);
      assert.equal(new Set(ids.slice(0, turns.length)).size, Math.min(ids.length, turns.length), `${c.name}: two calls shared a turnId: ${ids}`);
      assert.ok(ids.slice(turns.length).every((id) => id === ids[turns.length - 1]), `${c.name}: a retry with another turnId: ${ids}`);
    }
    assert.ok(got.every((call) => call.metadata.traceparent === TRACEPARENT), `${c.name}: traceparent not passed`);
    // At most: a request the client gave up on while sending may never reach the fake.
    if (c.expect.attempts !== undefined) assert.ok(got.length <= turns.length - 1 + c.expect.attempts, `${c.name}: ${got.length} calls`);
  }
}

function unavailable(t: TestContext, why: string): boolean {
  if (STRICT) assert.fail(`${why} (LADDERD_CONFORMANCE_STRICT=1: nothing may be skipped)`);
  t.skip(why);
  return true;
}

describe('against the daemon', () => {
  // A daemon you run ($LADDERD_ADDRESS: the suite starts none), else the
  // binary $LADDERD_BIN, started here.
  const running = process.env.LADDERD_ADDRESS;
  const binary = process.env.LADDERD_BIN;
  const host = process.env.LADDERD_TEST_OFF_LOOPBACK_HOST;
  let daemon: Daemon | undefined;
  let offLoopback: Daemon | undefined;
  before(async () => {
    if (running) daemon = Daemon.runningAt(running);
    else if (binary) daemon = await Daemon.start(binary, '127.0.0.1');
    if (binary && host) offLoopback = await Daemon.start(binary, host, ADMIN_TOKEN);
  });
  after(() => {
    daemon?.stop();
    offLoopback?.stop();
  });
  for (const c of CASES) {
    test(c.name, async (t) => {
      const d = c.off_loopback ? offLoopback : daemon;
      if (!d) {
        unavailable(
          t,
          c.off_loopback
            ? 'needs the suite’s own daemon (LADDERD_BIN) on an address of this host that is not loopback (LADDERD_TEST_OFF_LOOPBACK_HOST); cargo test runs the suite in a network namespace that has one'
            : 'neither LADDERD_ADDRESS (a daemon you run) nor LADDERD_BIN (the binary, started here: cargo build, then target/debug/ladderd) is set',
        );
        return;
      }
      await runCase(t, c, { kind: 'daemon', address: d.address });
    });
  }
});

describe('against the fake', () => {
  const fake = new FakeLadderd();
  const guarded = new FakeLadderd({ adminToken: ADMIN_TOKEN });
  before(async () => {
    await fake.start();
    await guarded.start();
  });
  after(async () => {
    await fake.stop();
    await guarded.stop();
  });
  for (const c of CASES) {
    test(c.name, async (t) => {
      const f = c.off_loopback ? guarded : fake;
      await runCase(t, c, { kind: 'fake', address: f.address, fake: f });
    });
  }
});
