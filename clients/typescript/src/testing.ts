// A stand-in for ladderd in an app's own tests: FakeLadderd.
//
// It is a real gRPC server in the test's process (port 0 on 127.0.0.1), so
// the app's code under test uses the real Client against `fake.address`. It
// records every call (`fake.calls`, `fake.requests('decide')`) and answers
// what the test scripted, else a safe default: Decide and Enrich answer a
// clarifier over every candidate they were sent (an escape
// `no_active_context` when there are none), like the daemon when its rules
// cannot settle a turn.
//
//   const fake = await new FakeLadderd().start();
//   fake.script('decide', { outcome: Outcome.EXECUTE, targetId: 'links-panel-d' });
//   await app.handleTurn(new Client({ address: fake.address }), 'open links panel d');
//   assert.equal(fake.requests('decide')[0].input, 'open links panel d');
//   await fake.stop();
//
// It keeps the daemon's rules an app's code can trip over: `sessionId` is
// required where the daemon requires it (INVALID_ARGUMENT "session_id:
// required"), a Decide with the session's last `turnId` and input gets that
// turn's answer again (a retry after a lost answer: nothing is scripted or
// counted again), health says SERVING (or what `setServing` says), and with
// `adminToken` set it refuses the control calls without that token, as a
// daemon does for a caller off loopback. It decides nothing: script what
// your test needs.

import { randomUUID } from 'node:crypto';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { RPCS, SERVICE, type Method } from './calls.js';
import { CODE_NAMES } from './errors.js';
import { Health, HealthCheckResponse_ServingStatus } from './gen/grpc/health/v1/health_pb.js';
import {
  Arbiter,
  ConfidenceBucket,
  Decider,
  OutcomeKind,
  Outcome,
  type Candidate,
  type DecideRequest,
  type EnrichRequest,
} from './gen/ladder/v1/ladder_pb.js';

type Request<M extends Method> = MessageShape<(typeof RPCS)[M]['request']>;
type Response<M extends Method> = MessageShape<(typeof RPCS)[M]['response']>;
type ResponseInit<M extends Method> = MessageInitShape<(typeof RPCS)[M]['response']>;

/** A scripted error: `code` Connect's Code or its gRPC name
 * ("INVALID_ARGUMENT"), `message` the daemon's words. */
export class Refusal {
  readonly code: Code;
  constructor(
    code: Code | string,
    readonly message = '',
  ) {
    if (typeof code === 'number') {
      this.code = code;
    } else {
      const found = Object.entries(CODE_NAMES).find(([, name]) => name === code);
      if (!found) throw new RangeError(`unknown status code ${code}`);
      this.code = Number(found[0]) as Code;
    }
  }
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

interface Scripted {
  answer: unknown;
  delayMs: number;
  when?: (request: never) => boolean;
  times: number;
}

interface Session {
  turns: number;
  accepted: string[];
  rejected: string[];
}

// The calls whose requests the daemon refuses without a session_id.
const SESSION_REQUIRED: ReadonlySet<Method> = new Set(['decide', 'enrich', 'recordOutcome', 'getSession', 'resetSession']);

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
export class FakeLadderd {
  readonly calls: Call[] = [];
  address = '';
  private readonly scripts = new Map<Method, Scripted[]>();
  private readonly sessions = new Map<string, Session>();
  /** Each session's last Decide with a turnId: its turnId and input, and its answer. */
  private readonly lastTurns = new Map<string, { turn: string; answer: unknown }>();
  private readonly open = new Set<http2.ServerHttp2Session>();
  private server: http2.Http2Server | undefined;
  private serving = true;

  constructor(private readonly options: FakeOptions = {}) {}

  async start(): Promise<this> {
    const routes = (router: ConnectRouter) => {
      const impl: Record<string, (request: never, context: HandlerContext) => Promise<unknown>> = {};
      for (const method of Object.keys(RPCS) as Method[]) {
        impl[method] = (request, context) => this.handle(method, request, context);
      }
      router.service(Arbiter, impl);
      router.service(Health, {
        check: async (request) => {
          if (request.service !== '' && request.service !== SERVICE) {
            throw new ConnectError(`unknown service ${JSON.stringify(request.service)}`, Code.NotFound);
          }
          return { status: this.serving ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.NOT_SERVING };
        },
      });
    };
    const server = http2.createServer(connectNodeAdapter({ routes }));
    server.on('session', (session) => {
      this.open.add(session);
      session.on('close', () => this.open.delete(session));
    });
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, host, () => resolve());
    });
    this.server = server;
    this.address = `${host}:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const session of this.open) session.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The next call of `method` that `when` accepts gets `answer` (undefined:
   * the default answer), after `delayMs`; it answers `times` calls, in the
   * order scripted. */
  script<M extends Method>(method: M, answer?: Answer<M>, options: ScriptOptions<M> = {}): void {
    if (!(method in RPCS)) throw new RangeError(`unknown method ${method}: one of ${Object.keys(RPCS).join(', ')}`);
    const list = this.scripts.get(method) ?? [];
    list.push({ answer, delayMs: options.delayMs ?? 0, when: options.when as Scripted['when'], times: options.times ?? 1 });
    this.scripts.set(method, list);
  }

  /** What the health service answers: SERVING, or NOT_SERVING (as a daemon
   * that is starting or draining). */
  setServing(serving: boolean): void {
    this.serving = serving;
  }

  /** The requests `method` received, oldest first. */
  requests<M extends Method>(method: M): Request<M>[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.request as Request<M>);
  }

  private take(method: Method, request: unknown): Scripted | undefined {
    const list = this.scripts.get(method) ?? [];
    const at = list.findIndex((s) => !s.when || s.when(request as never));
    if (at < 0) return undefined;
    const s = list[at];
    if (--s.times <= 0) list.splice(at, 1);
    return s;
  }

  private async handle<M extends Method>(method: M, request: Request<M>, context: HandlerContext): Promise<Response<M>> {
    const metadata: Record<string, string> = {};
    context.requestHeader.forEach((value, key) => (metadata[key] = value));
    this.calls.push({ method, request, metadata });
    const rpc = RPCS[method];
    const decide = method === 'decide' ? (request as DecideRequest) : undefined;
    const turn = decide?.turnId ? JSON.stringify([decide.turnId, decide.input]) : undefined;
    if (decide && turn === undefined) this.lastTurns.delete(decide.sessionId);
    const last = decide && turn !== undefined ? this.lastTurns.get(decide.sessionId) : undefined;
    const refused = this.guard(rpc.name, rpc.control, context.requestHeader.get('authorization'));
    if (refused) throw refused;
    if (last && last.turn === turn) return last.answer as Response<M>;
    const scripted = this.take(method, request);
    if (SESSION_REQUIRED.has(method) && !(request as { sessionId: string }).sessionId) {
      throw new ConnectError('session_id: required', Code.InvalidArgument);
    }
    if (scripted?.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
    let answer = scripted?.answer;
    if (typeof answer === 'function') answer = answer(request);
    if (answer === undefined) answer = this.fallback(method, request);
    if (answer instanceof Refusal) throw new ConnectError(answer.message, answer.code);
    const response = create(rpc.response, answer as never) as Response<M>;
    // A turn of the session, whatever answered it (a repeat is not one).
    if (decide) this.session(decide.sessionId).turns++;
    if (decide && turn !== undefined) this.lastTurns.set(decide.sessionId, { turn, answer: response });
    return response;
  }

  private guard(name: string, control: boolean, presented: string | null): ConnectError | undefined {
    const token = this.options.adminToken;
    if (!control || token === undefined) return undefined;
    if (presented === null) {
      return new ConnectError(
        `${name} from another host needs the admin token, sent as \`authorization: Bearer <token>\` (admin.token_file)`,
        Code.PermissionDenied,
      );
    }
    const [scheme, ...rest] = presented.split(' ');
    const given = rest.join(' ').trim();
    if (scheme.toLowerCase() !== 'bearer' || !given) {
      return new ConnectError(`${name}: the authorization metadata must be \`Bearer <token>\``, Code.PermissionDenied);
    }
    if (given !== token) return new ConnectError(`${name}: the admin token does not match (admin.token_file)`, Code.PermissionDenied);
    return undefined;
  }

  private session(id: string): Session {
    let s = this.sessions.get(id);
    if (!s) this.sessions.set(id, (s = { turns: 0, accepted: [], rejected: [] }));
    return s;
  }

  private fallback(method: Method, request: unknown): unknown {
    switch (method) {
      case 'decide':
      case 'enrich': {
        if (method === 'enrich') this.session((request as { sessionId: string }).sessionId).turns++;
        let pools: Candidate[][];
        if (method === 'decide') {
          const r = request as DecideRequest;
          pools = [r.options?.candidates ?? [], r.recoverableChatOptions, r.widgetItems];
        } else {
          pools = (request as EnrichRequest).evidence.map((block) => block.candidates);
        }
        const ids = [...new Set(pools.flat().map((c) => c.id))];
        if (ids.length === 0) {
          return { decisionId: randomUUID(), outcome: Outcome.ESCAPE, escapeReason: 'no_active_context', decidedBy: Decider.DETERMINISTIC, handledByTier: 'exclusions' };
        }
        return {
          decisionId: randomUUID(),
          outcome: Outcome.CLARIFY,
          decidedBy: Decider.DETERMINISTIC,
          confidence: ConfidenceBucket.LOW_CONFIDENCE_CLARIFIER_ONLY,
          handledByTier: 'fallback',
          loopCycleId: randomUUID(),
          clarifier: { question: 'Which one did you mean?', optionIds: ids, kind: 'selection_disambiguation' },
        };
      }
      case 'clarify':
        return { suggestedAction: 'NONE', source: 'fallback', language: (request as { uiLanguage: string }).uiLanguage || 'en' };
      case 'extract':
        return { decidedBy: 'baseline' };
      case 'recordOutcome': {
        const r = request as { sessionId: string; kind: OutcomeKind; choiceId: string };
        const s = this.sessions.get(r.sessionId);
        if (!s) return notFound(r.sessionId);
        if (r.kind === OutcomeKind.REJECTED) s.rejected.unshift(r.choiceId);
        else if (r.choiceId) s.accepted.unshift(r.choiceId);
        return { session: state(r.sessionId, s) };
      }
      case 'getSession': {
        const id = (request as { sessionId: string }).sessionId;
        const s = this.sessions.get(id);
        return s ? state(id, s) : notFound(id);
      }
      case 'resetSession': {
        const id = (request as { sessionId: string }).sessionId;
        this.lastTurns.delete(id);
        return { existed: this.sessions.delete(id) };
      }
      default:
        return { configRevision: 'fake', llmMode: 'off' };
    }
  }
}

function notFound(sessionId: string): Refusal {
  return new Refusal(Code.NotFound, `session ${JSON.stringify(sessionId)} not found (expired or never seen)`);
}

function state(sessionId: string, s: Session) {
  return {
    sessionId,
    turnCount: BigInt(s.turns),
    lastAcceptedChoiceId: s.accepted[0] ?? '',
    recentAcceptedChoiceIds: s.accepted.slice(0, 5),
    recentRejectedChoiceIds: s.rejected.slice(0, 5),
    continuityFresh: true,
  };
}
