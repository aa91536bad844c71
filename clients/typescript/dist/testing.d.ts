import { type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { Code } from '@connectrpc/connect';
import { RPCS, type Method } from './calls.js';
type Request<M extends Method> = MessageShape<(typeof RPCS)[M]['request']>;
type ResponseInit<M extends Method> = MessageInitShape<(typeof RPCS)[M]['response']>;
/** A scripted error: `code` Connect's Code or its gRPC name
 * ("INVALID_ARGUMENT"), `message` the daemon's words. */
export declare class Refusal {
    readonly message: string;
    readonly code: Code;
    constructor(code: Code | string, message?: string);
}
/** What a script answers: the response (a message or its fields), a
 * Refusal, or a function of the request returning one of those. */
export type Answer<M extends Method> = ResponseInit<M> | Refusal | ((request: Request<M>) => ResponseInit<M> | Refusal);
export interface ScriptOptions<M extends Method> {
    /** Milliseconds to wait first: beyond the client's timeout, a DEADLINE_EXCEEDED. */
    delayMs?: number;
    /** Only calls this accepts get the answer; default any. */
    when?: (request: Request<M>) => boolean;
    /** How many calls it answers; default 1, `Infinity` for every one. */
    times?: number;
}
/** One call the fake received: the method ('decide'), the request and the
 * call's metadata (lower-case keys). */
export interface Call {
    method: Method;
    request: Request<Method>;
    metadata: Record<string, string>;
}
export interface FakeOptions {
    /** When set, the control calls (RecordOutcome, GetSession, ResetSession,
     * ResetRollout) are refused PERMISSION_DENIED unless they carry
     * `authorization: Bearer <adminToken>`, as the daemon refuses a caller off
     * loopback; unset, every call is served, as on loopback. */
    adminToken?: string;
    host?: string;
    /** 0 (the default) takes a free port; `address` says which. */
    port?: number;
}
/** An in-process gRPC server that answers as scripted and records calls. */
export declare class FakeLadderd {
    private readonly options;
    readonly calls: Call[];
    address: string;
    private readonly scripts;
    private readonly sessions;
    /** Each session's last Decide with a turnId: its turnId and input, and its answer. */
    private readonly lastTurns;
    private readonly open;
    private server;
    private serving;
    constructor(options?: FakeOptions);
    start(): Promise<this>;
    stop(): Promise<void>;
    /** The next call of `method` that `when` accepts gets `answer` (undefined:
     * the default answer), after `delayMs`; it answers `times` calls, in the
     * order scripted. */
    script<M extends Method>(method: M, answer?: Answer<M>, options?: ScriptOptions<M>): void;
    /** What the health service answers: SERVING, or NOT_SERVING (as a daemon
     * that is starting or draining). */
    setServing(serving: boolean): void;
    /** The requests `method` received, oldest first. */
    requests<M extends Method>(method: M): Request<M>[];
    private take;
    private handle;
    private guard;
    private session;
    private fallback;
}
export {};
