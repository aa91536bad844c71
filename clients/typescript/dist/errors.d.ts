import { Code } from '@connectrpc/connect';
/** The daemon's load-shedding refusals (at server.max_concurrent_requests or
 * server.request_memory_bytes) end with these words; a size over its limit
 * is RESOURCE_EXHAUSTED too, and is never retried. */
export declare const OVERLOADED_MARKER = "retry with backoff";
/** gRPC's names of the status codes ("INVALID_ARGUMENT"), by Connect's Code. */
export declare const CODE_NAMES: Readonly<Record<Code, string>>;
/** A call that ladderd refused or that did not complete. `code` is the
 * status (Connect's `Code`), `codeName` its gRPC name ("NOT_FOUND"),
 * `details` the daemon's message, `method` the RPC ("Decide"). */
export declare class LadderError extends Error {
    readonly method: string;
    readonly code: Code;
    readonly details: string;
    constructor(method: string, code: Code, details: string);
    get codeName(): string;
}
/** INVALID_ARGUMENT: a bug in the request the app built. `field` names the
 * field ("session_id", "options.candidates.id"). Never retried. */
export declare class InvalidArgumentError extends LadderError {
    get field(): string | undefined;
}
/** RESOURCE_EXHAUSTED from the daemon's load shedding (its message ends
 * "retry with backoff"): nothing was done. Retried for calls safe to repeat. */
export declare class OverloadedError extends LadderError {
}
/** RESOURCE_EXHAUSTED for a request over a limit (a size, a count, the
 * matching work); `field` names it. Never retried: send less. */
export declare class LimitExceededError extends LadderError {
    get field(): string | undefined;
}
/** FAILED_PRECONDITION: Enrich on a cycle that is gone (Decide again), an
 * option set by reference that ladderd no longer holds (resend it), or a
 * version held with other content (send a new version). */
export declare class FailedPreconditionError extends LadderError {
}
/** NOT_FOUND: GetSession / RecordOutcome for a session that expired. */
export declare class NotFoundError extends LadderError {
}
/** PERMISSION_DENIED: a control call from off loopback without the admin
 * token (or with a wrong one). */
export declare class PermissionDeniedError extends LadderError {
}
/** DEADLINE_EXCEEDED: no answer within the call's timeout. Never retried:
 * answer the turn without ladderd. */
export declare class DeadlineExceededError extends LadderError {
}
/** UNAVAILABLE: the daemon is not up, or its shared session store did not
 * answer. Retried for calls safe to repeat. */
export declare class UnavailableError extends LadderError {
}
/** INTERNAL: a fault inside ladderd (its log says where). */
export declare class InternalError extends LadderError {
}
/** The error for a status: its class says what the app can do. */
export declare function errorFor(method: string, code: Code, details: string): LadderError;
/** The error for whatever a call threw (a ConnectError, or anything else). */
export declare function errorFrom(method: string, thrown: unknown): LadderError;
