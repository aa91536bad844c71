// ladderd's client: one HTTP/2 connection, reused for every call.

import type { MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { Code, createClient, type Client as ConnectClient } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { Health, HealthCheckResponse_ServingStatus } from './gen/grpc/health/v1/health_pb.js';
import { Arbiter } from './gen/ladder/v1/ladder_pb.js';
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_TIMEOUT_MS,
  PROBE_TIMEOUT_MS,
  RPCS,
  SERVICE,
  backoffMs,
  resolveAddress,
  resolveToken,
  shouldRetry,
  withTurnId,
  type Method,
} from './calls.js';
import { LadderError, UnavailableError, errorFrom } from './errors.js';

export interface ClientOptions {
  /** host:port; default $LADDERD_ADDRESS, else 127.0.0.1:50151. */
  address?: string;
  /** Bounds every call, retries included; default 1500. */
  timeoutMs?: number;
  /** Attempts in all, the first included; default 3. */
  maxAttempts?: number;
  /** Sent with the control calls only; default $LADDERD_ADMIN_TOKEN, else the
   * file $LADDER_ADMIN__TOKEN_FILE names. */
  adminToken?: string;
}

export interface CallOptions {
  /** This call's timeout instead of the client's. */
  timeoutMs?: number;
  /** Aborts the call (and its retries). */
  signal?: AbortSignal;
  /** A W3C traceparent, sent as the `traceparent` metadata entry. */
  traceparent?: string;
  /** More metadata to send. */
  headers?: Record<string, string>;
}

/** A call's request: the message, or an object of its fields. */
export type RequestOf<M extends Method> = MessageInitShape<(typeof RPCS)[M]['request']>;
/** A call's answer. */
export type ResponseOf<M extends Method> = MessageShape<(typeof RPCS)[M]['response']>;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** ladderd's client. One per process: it holds one connection. */
export class Client {
  readonly address: string;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly token: string | undefined;
  private readonly sessions: Http2SessionManager;
  private readonly arbiter: ConnectClient<typeof Arbiter>;
  private readonly health: ConnectClient<typeof Health>;

  constructor(options: ClientOptions = {}) {
    this.address = resolveAddress(options.address);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(this.timeoutMs > 0)) throw new RangeError('timeoutMs must be positive: a call without a timeout can wait forever');
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (!(this.maxAttempts >= 1)) throw new RangeError('maxAttempts counts the first try: at least 1');
    this.token = resolveToken(options.adminToken);
    const baseUrl = `http://${this.address}`;
    this.sessions = new Http2SessionManager(baseUrl);
    const transport = createGrpcTransport({ baseUrl, sessionManager: this.sessions });
    this.arbiter = createClient(Arbiter, transport);
    this.health = createClient(Health, transport);
  }

  /** Closes the connection; calls after it open a new one. */
  close(): void {
    this.sessions.abort();
  }

  /** Resolves once the daemon's health service says ladder.v1.Arbiter is
   * SERVING; rejects with UnavailableError after `timeoutMs`. An open port is
   * not enough: a starting or draining daemon answers NOT_SERVING. */
  async waitUntilReady(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    let pause = 50;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new UnavailableError('Health/Check', Code.Unavailable, `ladderd at ${this.address} is not serving after ${timeoutMs} ms (${last})`);
      }
      try {
        const answer = await this.health.check({ service: SERVICE }, { timeoutMs: Math.min(remaining, PROBE_TIMEOUT_MS) });
        if (answer.status === HealthCheckResponse_ServingStatus.SERVING) return;
        last = HealthCheckResponse_ServingStatus[answer.status] ?? String(answer.status);
      } catch (e) {
        const err = errorFrom('Health/Check', e);
        last = `${err.codeName}: ${err.details}`;
      }
      await sleep(Math.min(pause, Math.max(deadline - Date.now(), 0)));
      pause = Math.min(pause * 2, 500);
    }
  }

  /** The user said `input` while these candidates are in play: execute which one, ask what, or hand back? */
  decide(request: RequestOf<'decide'>, options?: CallOptions): Promise<ResponseOf<'decide'>> {
    return this.call('decide', request, options);
  }

  /** The evidence a NEED_MORE_INFO decision asked for; a new decision. Never retried. */
  enrich(request: RequestOf<'enrich'>, options?: CallOptions): Promise<ResponseOf<'enrich'>> {
    return this.call('enrich', request, options);
  }

  /** A safe, short assistant message in the user's language. */
  clarify(request: RequestOf<'clarify'>, options?: CallOptions): Promise<ResponseOf<'clarify'>> {
    return this.call('clarify', request, options);
  }

  /** Slots (entities) and an optional normalized text. */
  extract(request: RequestOf<'extract'>, options?: CallOptions): Promise<ResponseOf<'extract'>> {
    return this.call('extract', request, options);
  }

  /** What happened after a decision (a control call). Never retried. */
  recordOutcome(request: RequestOf<'recordOutcome'>, options?: CallOptions): Promise<ResponseOf<'recordOutcome'>> {
    return this.call('recordOutcome', request, options);
  }

  /** A session's continuity state (a control call). */
  getSession(request: RequestOf<'getSession'>, options?: CallOptions): Promise<ResponseOf<'getSession'>> {
    return this.call('getSession', request, options);
  }

  /** Clears a session's state and held option sets (a control call). */
  resetSession(request: RequestOf<'resetSession'>, options?: CallOptions): Promise<ResponseOf<'resetSession'>> {
    return this.call('resetSession', request, options);
  }

  /** The active config revision, the kill switch and the guardrail figures. */
  getRollout(request: RequestOf<'getRollout'> = {}, options?: CallOptions): Promise<ResponseOf<'getRollout'>> {
    return this.call('getRollout', request, options);
  }

  /** Re-enables auto-execute after the guardrails tripped it (a control call). */
  resetRollout(request: RequestOf<'resetRollout'> = {}, options?: CallOptions): Promise<ResponseOf<'resetRollout'>> {
    return this.call('resetRollout', request, options);
  }

  private async call<M extends Method>(method: M, request: RequestOf<M>, options: CallOptions = {}): Promise<ResponseOf<M>> {
    const rpc = RPCS[method];
    const headers = new Headers(options.headers);
    if (options.traceparent) headers.set('traceparent', options.traceparent);
    if (this.token && rpc.control) headers.set('authorization', `Bearer ${this.token}`);
    const deadline = Date.now() + (options.timeoutMs ?? this.timeoutMs);
    const invoke = this.arbiter[method] as unknown as (
      request: RequestOf<M>,
      options: { timeoutMs: number; signal?: AbortSignal; headers: Headers },
    ) => Promise<ResponseOf<M>>;
    const sent = withTurnId(method, request);
    for (let attempt = 1; ; attempt++) {
      let err: LadderError;
      try {
        return await invoke(sent, { timeoutMs: Math.max(deadline - Date.now(), 1), signal: options.signal, headers });
      } catch (e) {
        err = errorFrom(rpc.name, e);
      }
      // A stream the connection's loss closed (Connect reports it as
      // CANCELLED, "http/2 stream closed"), neither aborted by the app nor
      // past the deadline: the daemon is unreachable for now, as gRPC's
      // UNAVAILABLE says it in Python.
      if (err.code === Code.Canceled && !options.signal?.aborted && Date.now() < deadline) {
        err = new UnavailableError(rpc.name, Code.Unavailable, `the connection was lost before the answer came (${err.details})`);
      }
      if (!shouldRetry(method, sent, err, attempt, this.maxAttempts)) throw err;
      const pause = backoffMs(attempt);
      if (Date.now() + pause >= deadline) throw err;
      await sleep(pause, options.signal).catch(() => {
        throw new LadderError(rpc.name, Code.Canceled, 'the call was aborted (its signal) between two attempts');
      });
    }
  }
}
