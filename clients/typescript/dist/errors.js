// One error hierarchy for every refusal, mapped from the gRPC status.
//
// The daemon's messages name what was wrong: "session_id: required",
// "input: 4097 bytes is over the limit of 4096". `field` is that name.
import { Code, ConnectError } from '@connectrpc/connect';
/** The daemon's load-shedding refusals (at server.max_concurrent_requests or
 * server.request_memory_bytes) end with these words; a size over its limit
 * is RESOURCE_EXHAUSTED too, and is never retried. */
export const OVERLOADED_MARKER = 'retry with backoff';
/** gRPC's names of the status codes ("INVALID_ARGUMENT"), by Connect's Code. */
export const CODE_NAMES = {
    [Code.Canceled]: 'CANCELLED',
    [Code.Unknown]: 'UNKNOWN',
    [Code.InvalidArgument]: 'INVALID_ARGUMENT',
    [Code.DeadlineExceeded]: 'DEADLINE_EXCEEDED',
    [Code.NotFound]: 'NOT_FOUND',
    [Code.AlreadyExists]: 'ALREADY_EXISTS',
    [Code.PermissionDenied]: 'PERMISSION_DENIED',
    [Code.ResourceExhausted]: 'RESOURCE_EXHAUSTED',
    [Code.FailedPrecondition]: 'FAILED_PRECONDITION',
    [Code.Aborted]: 'ABORTED',
    [Code.OutOfRange]: 'OUT_OF_RANGE',
    [Code.Unimplemented]: 'UNIMPLEMENTED',
    [Code.Internal]: 'INTERNAL',
    [Code.Unavailable]: 'UNAVAILABLE',
    [Code.DataLoss]: 'DATA_LOSS',
    [Code.Unauthenticated]: 'UNAUTHENTICATED',
};
/** A call that ladderd refused or that did not complete. `code` is the
 * status (Connect's `Code`), `codeName` its gRPC name ("NOT_FOUND"),
 * `details` the daemon's message, `method` the RPC ("Decide"). */
export class LadderError extends Error {
    method;
    code;
    details;
    constructor(method, code, details) {
        super(`${method}: ${CODE_NAMES[code] ?? code}: ${details}`);
        this.method = method;
        this.code = code;
        this.details = details;
        this.name = new.target.name;
    }
    get codeName() {
        return CODE_NAMES[this.code] ?? String(this.code);
    }
}
function fieldOf(details) {
    const at = details.indexOf(': ');
    const head = at > 0 ? details.slice(0, at) : '';
    return head && !head.includes(' ') ? head : undefined;
}
/** INVALID_ARGUMENT: a bug in the request the app built. `field` names the
 * field ("session_id", "options.candidates.id"). Never retried. */
export class InvalidArgumentError extends LadderError {
    get field() {
        return fieldOf(this.details);
    }
}
/** RESOURCE_EXHAUSTED from the daemon's load shedding (its message ends
 * "retry with backoff"): nothing was done. Retried for calls safe to repeat. */
export class OverloadedError extends LadderError {
}
/** RESOURCE_EXHAUSTED for a request over a limit (a size, a count, the
 * matching work); `field` names it. Never retried: send less. */
export class LimitExceededError extends LadderError {
    get field() {
        return fieldOf(this.details);
    }
}
/** FAILED_PRECONDITION: Enrich on a cycle that is gone (Decide again), an
 * option set by reference that ladderd no longer holds (resend it), or a
 * version held with other content (send a new version). */
export class FailedPreconditionError extends LadderError {
}
/** NOT_FOUND: GetSession / RecordOutcome for a session that expired. */
export class NotFoundError extends LadderError {
}
/** PERMISSION_DENIED: a control call from off loopback without the admin
 * token (or with a wrong one). */
export class PermissionDeniedError extends LadderError {
}
/** DEADLINE_EXCEEDED: no answer within the call's timeout. Never retried:
 * answer the turn without ladderd. */
export class DeadlineExceededError extends LadderError {
}
/** UNAVAILABLE: the daemon is not up, or its shared session store did not
 * answer. Retried for calls safe to repeat. */
export class UnavailableError extends LadderError {
}
/** INTERNAL: a fault inside ladderd (its log says where). */
export class InternalError extends LadderError {
}
const BY_CODE = {
    [Code.InvalidArgument]: InvalidArgumentError,
    [Code.FailedPrecondition]: FailedPreconditionError,
    [Code.NotFound]: NotFoundError,
    [Code.PermissionDenied]: PermissionDeniedError,
    [Code.DeadlineExceeded]: DeadlineExceededError,
    [Code.Unavailable]: UnavailableError,
    [Code.Internal]: InternalError,
};
/** The error for a status: its class says what the app can do. */
export function errorFor(method, code, details) {
    if (code === Code.ResourceExhausted) {
        const cls = details.includes(OVERLOADED_MARKER) ? OverloadedError : LimitExceededError;
        return new cls(method, code, details);
    }
    const cls = BY_CODE[code] ?? LadderError;
    return new cls(method, code, details);
}
/** The error for whatever a call threw (a ConnectError, or anything else). */
export function errorFrom(method, thrown) {
    if (thrown instanceof LadderError)
        return thrown;
    const e = ConnectError.from(thrown);
    return errorFor(method, e.code, e.rawMessage);
}
