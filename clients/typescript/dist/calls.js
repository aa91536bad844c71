// What the client and the fake share: the calls, their rules, the options.
//
// The rules (docs/calling.md, "Deadlines, retries and readiness"):
//  * every call has a timeout, 1500 ms unless the client or the call says
//    otherwise: above the daemon's llm.timeout_ms (800 ms by default), so the
//    daemon's own fallback clarifier arrives before the client gives up. The
//    timeout covers the whole call, retries and their pauses included;
//  * a call is retried only when it is safe to repeat (`repeatable`), and
//    only after UNAVAILABLE (a lost connection included) or the daemon's
//    load-shedding refusal (OverloadedError): up to `maxAttempts` attempts
//    in all, pausing 50 ms, then 100 ms, ... with jitter, never past the
//    timeout. DEADLINE_EXCEEDED is never retried;
//  * a Decide without a `turnId` gets a fresh one (a UUID) per call, which
//    its retries reuse: the daemon applies a turn once per (session_id,
//    turn_id), so a retry after a lost answer gets the first answer and
//    applies nothing again. Decide is retried only with a `turnId`;
//  * the admin token goes only with the control calls (`control`), as
//    `authorization: Bearer <token>`; a `traceparent` goes with any call.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ClarifyRequestSchema, ClarifyResponseSchema, DecideRequestSchema, DecisionSchema, EnrichRequestSchema, ExtractRequestSchema, ExtractResponseSchema, GetRolloutRequestSchema, GetSessionRequestSchema, RecordOutcomeRequestSchema, RecordOutcomeResponseSchema, ResetRolloutRequestSchema, ResetSessionRequestSchema, ResetSessionResponseSchema, RolloutStateSchema, SessionStateSchema, } from './gen/ladder/v1/ladder_pb.js';
import { OverloadedError, UnavailableError } from './errors.js';
export const DEFAULT_ADDRESS = '127.0.0.1:50151';
export const DEFAULT_TIMEOUT_MS = 1500;
export const DEFAULT_MAX_ATTEMPTS = 3;
export const FIRST_BACKOFF_MS = 50;
/** How long one readiness probe waits for the health service's answer. */
export const PROBE_TIMEOUT_MS = 500;
export const ADDRESS_ENV = 'LADDERD_ADDRESS';
export const TOKEN_ENV = 'LADDERD_ADMIN_TOKEN';
/** The daemon's own variable for its token file (admin.token_file): an app
 * container that mounts the same Secret finds the token with no more setup. */
export const TOKEN_FILE_ENV = 'LADDER_ADMIN__TOKEN_FILE';
export const SERVICE = 'ladder.v1.Arbiter';
// Enrich spends a step of the cycle's budget and may resolve the cycle (a
// repeat spends another, or finds the cycle gone); RecordOutcome counts an
// outcome in the session and the guardrails' windows (a repeat counts it
// twice). Every other call reads, or sets a state a repeat sets again:
// Decide with its turn_id (the app's, else the client's: `withTurnId`) is
// answered once per turn, a repeat getting the first answer.
/** Each call: its RPC name, messages, whether it is a control call (served
 * off loopback only with the admin token) and whether it is retried. */
export const RPCS = {
    decide: { name: 'Decide', request: DecideRequestSchema, response: DecisionSchema, control: false, repeatable: true },
    enrich: { name: 'Enrich', request: EnrichRequestSchema, response: DecisionSchema, control: false, repeatable: false },
    clarify: { name: 'Clarify', request: ClarifyRequestSchema, response: ClarifyResponseSchema, control: false, repeatable: true },
    extract: { name: 'Extract', request: ExtractRequestSchema, response: ExtractResponseSchema, control: false, repeatable: true },
    recordOutcome: {
        name: 'RecordOutcome',
        request: RecordOutcomeRequestSchema,
        response: RecordOutcomeResponseSchema,
        control: true,
        repeatable: false,
    },
    getSession: { name: 'GetSession', request: GetSessionRequestSchema, response: SessionStateSchema, control: true, repeatable: true },
    resetSession: {
        name: 'ResetSession',
        request: ResetSessionRequestSchema,
        response: ResetSessionResponseSchema,
        control: true,
        repeatable: true,
    },
    getRollout: { name: 'GetRollout', request: GetRolloutRequestSchema, response: RolloutStateSchema, control: false, repeatable: true },
    resetRollout: { name: 'ResetRollout', request: ResetRolloutRequestSchema, response: RolloutStateSchema, control: true, repeatable: true },
};
export function resolveAddress(address) {
    return address || process.env[ADDRESS_ENV] || DEFAULT_ADDRESS;
}
/** The option, else $LADDERD_ADMIN_TOKEN, else the file that
 * $LADDER_ADMIN__TOKEN_FILE names (read as the daemon reads it: surrounding
 * whitespace ignored). Undefined: control calls go without a token, which
 * the daemon accepts from loopback only. */
export function resolveToken(adminToken) {
    if (adminToken)
        return adminToken;
    const fromEnv = process.env[TOKEN_ENV]?.trim();
    if (fromEnv)
        return fromEnv;
    const file = process.env[TOKEN_FILE_ENV];
    if (!file)
        return undefined;
    try {
        return readFileSync(file, 'ascii').trim() || undefined;
    }
    catch (err) {
        throw new Error(`$${TOKEN_FILE_ENV} names ${file}, which holds no readable token: ${err.message}`);
    }
}
/** A Decide without a turnId, with a fresh one (a UUID) that this call's
 * retries reuse. The app's request is left as it was (a copy carries the
 * id): a request sent again for the next turn gets a new one. */
export function withTurnId(method, request) {
    if (method !== 'decide' || request.turnId)
        return request;
    return { ...request, turnId: randomUUID() };
}
/** Whether to try again: a call safe to repeat (a Decide with its turnId),
 * after UNAVAILABLE or the load-shedding refusal. */
export function shouldRetry(method, request, err, attempt, maxAttempts) {
    const keyed = method !== 'decide' || Boolean(request.turnId);
    return RPCS[method].repeatable && keyed && attempt < maxAttempts && (err instanceof UnavailableError || err instanceof OverloadedError);
}
/** The pause before attempt `attempt + 1`: 50 ms doubling, plus up to as
 * much again at random (so shed callers do not come back together). */
export function backoffMs(attempt) {
    return FIRST_BACKOFF_MS * 2 ** (attempt - 1) * (1 + Math.random());
}
