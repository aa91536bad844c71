// ladderd's client: one HTTP/2 connection, reused for every call.
import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { Health, HealthCheckResponse_ServingStatus } from './gen/grpc/health/v1/health_pb.js';
import { Arbiter } from './gen/ladder/v1/ladder_pb.js';
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_MS, PROBE_TIMEOUT_MS, RPCS, SERVICE, backoffMs, resolveAddress, resolveToken, shouldRetry, withTurnId, } from './calls.js';
import { LadderError, UnavailableError, errorFrom } from './errors.js';
const sleep = (ms, signal) => new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
    }, { once: true });
});
/** ladderd's client. One per process: it holds one connection. */
export class Client {
    address;
    timeoutMs;
    maxAttempts;
    token;
    sessions;
    arbiter;
    health;
    constructor(options = {}) {
        this.address = resolveAddress(options.address);
        this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        if (!(this.timeoutMs > 0))
            throw new RangeError('timeoutMs must be positive: a call without a timeout can wait forever');
        this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
        if (!(this.maxAttempts >= 1))
            throw new RangeError('maxAttempts counts the first try: at least 1');
        this.token = resolveToken(options.adminToken);
        const baseUrl = `http://${this.address}`;
        this.sessions = new Http2SessionManager(baseUrl);
        const transport = createGrpcTransport({ baseUrl, sessionManager: this.sessions });
        this.arbiter = createClient(Arbiter, transport);
        this.health = createClient(Health, transport);
    }
    /** Closes the connection; calls after it open a new one. */
    close() {
        this.sessions.abort();
    }
    /** Resolves once the daemon's health service says ladder.v1.Arbiter is
     * SERVING; rejects with UnavailableError after `timeoutMs`. An open port is
     * not enough: a starting or draining daemon answers NOT_SERVING. */
    async waitUntilReady(timeoutMs = 5000) {
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
                if (answer.status === HealthCheckResponse_ServingStatus.SERVING)
                    return;
                last = HealthCheckResponse_ServingStatus[answer.status] ?? String(answer.status);
            }
            catch (e) {
                const err = errorFrom('Health/Check', e);
                last = `${err.codeName}: ${err.details}`;
            }
            await sleep(Math.min(pause, Math.max(deadline - Date.now(), 0)));
            pause = Math.min(pause * 2, 500);
        }
    }
    /** The user said `input` while these candidates are in play: execute which one, ask what, or hand back? */
    decide(request, options) {
        return this.call('decide', request, options);
    }
    /** The evidence a NEED_MORE_INFO decision asked for; a new decision. Never retried. */
    enrich(request, options) {
        return this.call('enrich', request, options);
    }
    /** A safe, short assistant message in the user's language. */
    clarify(request, options) {
        return this.call('clarify', request, options);
    }
    /** Slots (entities) and an optional normalized text. */
    extract(request, options) {
        return this.call('extract', request, options);
    }
    /** What happened after a decision (a control call). Never retried. */
    recordOutcome(request, options) {
        return this.call('recordOutcome', request, options);
    }
    /** A session's continuity state (a control call). */
    getSession(request, options) {
        return this.call('getSession', request, options);
    }
    /** Clears a session's state and held option sets (a control call). */
    resetSession(request, options) {
        return this.call('resetSession', request, options);
    }
    /** The active config revision, the kill switch and the guardrail figures. */
    getRollout(request = {}, options) {
        return this.call('getRollout', request, options);
    }
    /** Re-enables auto-execute after the guardrails tripped it (a control call). */
    resetRollout(request = {}, options) {
        return this.call('resetRollout', request, options);
    }
    async call(method, request, options = {}) {
        const rpc = RPCS[method];
        const headers = new Headers(options.headers);
        if (options.traceparent)
            headers.set('traceparent', options.traceparent);
        if (this.token && rpc.control)
            headers.set('authorization', `Bearer ${this.token}`);
        const deadline = Date.now() + (options.timeoutMs ?? this.timeoutMs);
        const invoke = this.arbiter[method];
        const sent = withTurnId(method, request);
        for (let attempt = 1;; attempt++) {
            let err;
            try {
                return await invoke(sent, { timeoutMs: Math.max(deadline - Date.now(), 1), signal: options.signal, headers });
            }
            catch (e) {
                err = errorFrom(rpc.name, e);
            }
            // A stream the connection's loss closed (Connect reports it as
            // CANCELLED, "http/2 stream closed"), neither aborted by the app nor
            // past the deadline: the daemon is unreachable for now, as gRPC's
            // UNAVAILABLE says it in Python.
            if (err.code === Code.Canceled && !options.signal?.aborted && Date.now() < deadline) {
                err = new UnavailableError(rpc.name, Code.Unavailable, `the connection was lost before the answer came (${err.details})`);
            }
            if (!shouldRetry(method, sent, err, attempt, this.maxAttempts))
                throw err;
            const pause = backoffMs(attempt);
            if (Date.now() + pause >= deadline)
                throw err;
            await sleep(pause, options.signal).catch(() => {
                throw new LadderError(rpc.name, Code.Canceled, 'the call was aborted (its signal) between two attempts');
            });
        }
    }
}
