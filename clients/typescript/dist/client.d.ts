import type { MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { RPCS, type Method } from './calls.js';
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
/** ladderd's client. One per process: it holds one connection. */
export declare class Client {
    readonly address: string;
    private readonly timeoutMs;
    private readonly maxAttempts;
    private readonly token;
    private readonly sessions;
    private readonly arbiter;
    private readonly health;
    constructor(options?: ClientOptions);
    /** Closes the connection; calls after it open a new one. */
    close(): void;
    /** Resolves once the daemon's health service says ladder.v1.Arbiter is
     * SERVING; rejects with UnavailableError after `timeoutMs`. An open port is
     * not enough: a starting or draining daemon answers NOT_SERVING. */
    waitUntilReady(timeoutMs?: number): Promise<void>;
    /** The user said `input` while these candidates are in play: execute which one, ask what, or hand back? */
    decide(request: RequestOf<'decide'>, options?: CallOptions): Promise<ResponseOf<'decide'>>;
    /** The evidence a NEED_MORE_INFO decision asked for; a new decision. Never retried. */
    enrich(request: RequestOf<'enrich'>, options?: CallOptions): Promise<ResponseOf<'enrich'>>;
    /** A safe, short assistant message in the user's language. */
    clarify(request: RequestOf<'clarify'>, options?: CallOptions): Promise<ResponseOf<'clarify'>>;
    /** Slots (entities) and an optional normalized text. */
    extract(request: RequestOf<'extract'>, options?: CallOptions): Promise<ResponseOf<'extract'>>;
    /** What happened after a decision (a control call). Never retried. */
    recordOutcome(request: RequestOf<'recordOutcome'>, options?: CallOptions): Promise<ResponseOf<'recordOutcome'>>;
    /** A session's continuity state (a control call). */
    getSession(request: RequestOf<'getSession'>, options?: CallOptions): Promise<ResponseOf<'getSession'>>;
    /** Clears a session's state and held option sets (a control call). */
    resetSession(request: RequestOf<'resetSession'>, options?: CallOptions): Promise<ResponseOf<'resetSession'>>;
    /** The active config revision, the kill switch and the guardrail figures. */
    getRollout(request?: RequestOf<'getRollout'>, options?: CallOptions): Promise<ResponseOf<'getRollout'>>;
    /** Re-enables auto-execute after the guardrails tripped it (a control call). */
    resetRollout(request?: RequestOf<'resetRollout'>, options?: CallOptions): Promise<ResponseOf<'resetRollout'>>;
    private call;
}
