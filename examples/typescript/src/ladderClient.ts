// A tiny client for ladderd (gRPC service ladder.v1.Arbiter).
//
// The service is loaded at run time from proto/ladder/v1/ladder.proto with
// @grpc/proto-loader; the TypeScript types in ./generated are generated from
// the same file by `npm run gen` (proto-loader-gen-types, part of `npm run
// build`) and never committed.
//
// What the wrapper adds to the loaded client:
//  * a deadline on every call, above the daemon's llm.timeout_ms (800 ms by
//    default), so the daemon's own fallback clarifier arrives before the
//    client gives up;
//  * a W3C `traceparent` sent as call metadata when the caller passes one;
//  * promises, retries with backoff for the two refusals worth retrying
//    (UNAVAILABLE, and RESOURCE_EXHAUSTED when the daemon is at its
//    concurrency limit), and one error type, LadderError, carrying the
//    status code for everything else.

import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType } from './generated/ladder';
import type { ArbiterClient } from './generated/ladder/v1/Arbiter';
import type { DecideRequest } from './generated/ladder/v1/DecideRequest';
import type { Decision__Output } from './generated/ladder/v1/Decision';
import type { EnrichRequest } from './generated/ladder/v1/EnrichRequest';
import type { RecordOutcomeRequest } from './generated/ladder/v1/RecordOutcomeRequest';
import type { RecordOutcomeResponse__Output } from './generated/ladder/v1/RecordOutcomeResponse';
import type { ResetSessionResponse__Output } from './generated/ladder/v1/ResetSessionResponse';
import type { SessionState__Output } from './generated/ladder/v1/SessionState';

export type { Candidate } from './generated/ladder/v1/Candidate';
export type { DecideRequest, Decision__Output as Decision, EnrichRequest, RecordOutcomeRequest };
export type { EvidenceBlock } from './generated/ladder/v1/EvidenceBlock';
export type { OptionSet } from './generated/ladder/v1/OptionSet';
export type SessionState = SessionState__Output;

/** Above llm.timeout_ms (800 ms by default): when the LLM rung is slow the
 * daemon cancels it and answers with a clarifier; give it the time to. */
export const DEFAULT_DEADLINE_MS = 1500;

/** The directory holding ladder/v1/ladder.proto (the repository's proto/). */
export const PROTO_DIR = process.env.LADDER_PROTO_DIR ?? path.resolve(__dirname, '..', '..', '..', 'proto');

// Must match the flags of `npm run gen`, or the generated types lie.
const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

// The daemon's load-shedding refusals (at server.max_concurrent_requests or
// server.request_memory_bytes) end with this; size refusals (also
// RESOURCE_EXHAUSTED) do not and are never retried.
const OVERLOADED_MARKER = 'retry with backoff';

/** A call that ladderd refused or that did not complete. `details` is the
 * daemon's message, which names the field and the limit for
 * INVALID_ARGUMENT and RESOURCE_EXHAUSTED. */
export class LadderError extends Error {
  constructor(
    readonly method: string,
    readonly code: grpc.status,
    readonly details: string,
  ) {
    super(`${method}: ${grpc.status[code]}: ${details}`);
    this.name = 'LadderError';
  }

  /** e.g. "FAILED_PRECONDITION". */
  get codeName(): string {
    return grpc.status[this.code];
  }
}

/** A fresh W3C traceparent (version 00, sampled). In an instrumented app,
 * inject the active span's context instead (@opentelemetry/api propagation). */
export function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

export interface CallOptions {
  /** Sent as the `traceparent` metadata entry. */
  traceparent?: string;
}

export interface ClientOptions {
  deadlineMs?: number;
  maxAttempts?: number;
}

function isRetryable(err: grpc.ServiceError): boolean {
  if (err.code === grpc.status.UNAVAILABLE) return true;
  return err.code === grpc.status.RESOURCE_EXHAUSTED && (err.details ?? '').includes(OVERLOADED_MARKER);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Invoke<T> = (metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<T>) => void;

/** One channel to the daemon; share it across requests. */
export class LadderClient {
  private readonly client: ArbiterClient;
  private readonly deadlineMs: number;
  private readonly maxAttempts: number;

  constructor(address = '127.0.0.1:50151', options: ClientOptions = {}) {
    const definition = protoLoader.loadSync('ladder/v1/ladder.proto', LOADER_OPTIONS);
    const proto = grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType;
    this.client = new proto.ladder.v1.Arbiter(address, grpc.credentials.createInsecure());
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  /** Resolves once the channel connects (the daemon is up). */
  waitReady(timeoutMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      this.client.waitForReady(Date.now() + timeoutMs, (err) =>
        err ? reject(new LadderError('connect', grpc.status.UNAVAILABLE, err.message)) : resolve(),
      );
    });
  }

  close(): void {
    this.client.close();
  }

  decide(request: DecideRequest, options?: CallOptions): Promise<Decision__Output> {
    return this.call('Decide', (md, o, cb) => this.client.decide(request, md, o, cb), options);
  }

  enrich(request: EnrichRequest, options?: CallOptions): Promise<Decision__Output> {
    return this.call('Enrich', (md, o, cb) => this.client.enrich(request, md, o, cb), options);
  }

  async recordOutcome(request: RecordOutcomeRequest, options?: CallOptions): Promise<SessionState> {
    const response = await this.call<RecordOutcomeResponse__Output>('RecordOutcome', (md, o, cb) => this.client.recordOutcome(request, md, o, cb), options);
    if (!response.session) throw new LadderError('RecordOutcome', grpc.status.INTERNAL, 'response without a session');
    return response.session;
  }

  getSession(sessionId: string, options?: CallOptions): Promise<SessionState> {
    return this.call('GetSession', (md, o, cb) => this.client.getSession({ sessionId }, md, o, cb), options);
  }

  /** Clears the session; resolves to whether it existed. */
  async resetSession(sessionId: string, options?: CallOptions): Promise<boolean> {
    const response = await this.call<ResetSessionResponse__Output>('ResetSession', (md, o, cb) => this.client.resetSession({ sessionId }, md, o, cb), options);
    return response.existed;
  }

  private async call<T>(method: string, invoke: Invoke<T>, options: CallOptions = {}): Promise<T> {
    let backoffMs = 50;
    for (let attempt = 1; ; attempt++) {
      const metadata = new grpc.Metadata();
      if (options.traceparent) metadata.set('traceparent', options.traceparent);
      try {
        return await new Promise<T>((resolve, reject) =>
          invoke(metadata, { deadline: Date.now() + this.deadlineMs }, (err, value) =>
            err ? reject(err) : resolve(value as T),
          ),
        );
      } catch (e) {
        const err = e as grpc.ServiceError;
        if (attempt < this.maxAttempts && isRetryable(err)) {
          await sleep(backoffMs * (1 + Math.random()));
          backoffMs *= 2;
          continue;
        }
        throw new LadderError(method, err.code ?? grpc.status.UNKNOWN, err.details ?? String(err));
      }
    }
  }
}
