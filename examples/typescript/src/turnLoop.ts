// The turn loop an app server runs once per user turn, walked through one
// scenario of each outcome and a conversation of replies against a running
// ladderd.
//
//     npm install --install-links && npm run build && node dist/turnLoop.js 127.0.0.1:50151
//
// Decide -> EXECUTE: act, then RecordOutcome(EXECUTED); with a followUp
//           (a yes that also asked or requested something), the rest is
//           the user's next turn: answer the question, Decide the request
//        -> CLARIFY: show the question and options; the user's pick is
//           RecordOutcome(ACCEPTED); an answer in words is the next turn's
//           Decide, sent with the clarifier's options, in its order, as the
//           screen (so "the second one" is the clarifier's second)
//        -> ESCAPE: hand the turn to the app's own router (a question, a
//           cancel, a command), or, `declined`, show something else
//        -> NEED_MORE_INFO: Enrich with the evidence asked for, then act on
//           the new decision (FAILED_PRECONDITION: the cycle is gone, Decide
//           again)
// Any error: answer the turn without ladderd (it only advises).
//
// A reply ("yes", "the saturday one", "no, not that one") is read against
// what was asked: ladderd's own last question, kept in the session, or the
// app's, sent on the screen as OptionSet.asked (docs/replies.md).
//
// It is also a test driver: it exits 1 if any scenario ends with an outcome
// other than the expected one, 2 if the daemon cannot be reached.

import { randomBytes, randomUUID } from 'node:crypto';
import {
  Asked,
  Client,
  DEFAULT_TIMEOUT_MS,
  FailedPreconditionError,
  FollowUpKind,
  InvalidArgumentError,
  LadderError,
  LimitExceededError,
  NotFoundError,
  Outcome,
  OutcomeKind,
  OutcomeSchema,
  Risk,
  Scope,
  type Decision,
  type RequestOf,
  type SessionState,
} from 'ladderd';

// The app builds its requests from plain objects of the messages' fields.
type DecideRequest = RequestOf<'decide'>;
type OptionSet = NonNullable<DecideRequest['options']>;
type Candidate = NonNullable<OptionSet['candidates']>[number];
type EvidenceBlock = NonNullable<RequestOf<'enrich'>['evidence']>[number];

/** "OUTCOME_EXECUTE", as the proto names it. */
const outcomeName = (o: Outcome) => OutcomeSchema.value[o]?.name ?? String(o);

/** A fresh W3C traceparent (version 00, sampled). In an instrumented app,
 * inject the active span's context instead (@opentelemetry/api propagation). */
function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

const MAX_ENRICH_STEPS = 2;

// ------------------------------------------------------------------ app --

/** What the app has in play for this user when the turn arrives. */
interface Screen {
  options?: OptionSet;
  widgetItems?: Candidate[];
  /** Options shown earlier in the chat, which the app can recover if asked. */
  olderChatOptions?: Candidate[];
}

/** Stands in for the app server: it records what it would do. */
class DemoApp {
  log: string[] = [];
  /** What the last clarifier showed: the next turn's screen. */
  asked: OptionSet | undefined;

  /**
   * `userPicks`: whether the simulated user picks an option of a question at
   * once; in a conversation the user answers in words on the next turn.
   */
  constructor(
    public screen: Screen,
    readonly userPicks = true,
  ) {}

  execute(targetId: string): void {
    this.log.push(`executed ${targetId}`);
  }

  ask(question: string, optionIds: string[]): string | undefined {
    this.log.push(`asked ${JSON.stringify(question)} [${optionIds.join(', ')}]`);
    if (!this.userPicks) return undefined; // the answer is the user's next turn
    return optionIds[0]; // the simulated user picks the first option
  }

  route(reason: string, _text: string): void {
    this.log.push(`routed (${reason})`);
  }

  answerAbout(_text: string, about: string[]): void {
    // `question_intent`: the app's chat answers the question, with the
    // options it is about (closest first; none when nothing on the screen
    // is close) as its context: "what is links panel d?" is answered from
    // what the app knows of links-panel-d.
    this.log.push(`answered a question about [${about.join(', ')}]`);
  }

  answer(question: string): void {
    // The app's own chat answers the question the user asked with a yes.
    this.log.push(`answered ${JSON.stringify(question)}`);
  }

  showSomethingElse(refused: string[]): void {
    // `declined`: the user refused what was proposed, not the task.
    this.log.push(`declined [${refused.join(', ')}]: showing other options`);
  }

  evidence(type: string): EvidenceBlock | undefined {
    const { olderChatOptions = [], widgetItems = [] } = this.screen;
    if (type === 'chat_recoverable_options' && olderChatOptions.length) return { type, candidates: olderChatOptions };
    if (type === 'active_widget_items' && widgetItems.length) return { type, candidates: widgetItems };
    return undefined;
  }
}

// ------------------------------------------------------------ turn loop --

interface Turn {
  outcomes: string[];
  decision?: Decision;
  session?: SessionState;
  error?: LadderError;
}

async function handleTurn(client: Client, app: DemoApp, sessionId: string, text: string): Promise<Turn> {
  const turn: Turn = { outcomes: [] };
  const turnId = randomUUID();
  // In an instrumented app, forward the incoming request's trace context.
  const call = { traceparent: newTraceparent() };
  const request: DecideRequest = {
    sessionId,
    turnId,
    input: text,
    activeScope: { scope: Scope.CHAT, instanceId: 'chat-1' },
    options: app.screen.options,
    widgetItems: app.screen.widgetItems,
    language: 'en',
  };
  try {
    let decision = await client.decide(request, call);
    turn.outcomes.push(outcomeName(decision.outcome));

    for (let step = 0; decision.outcome === Outcome.NEED_MORE_INFO && step < MAX_ENRICH_STEPS; step++) {
      const evidence = decision.neededEvidenceTypes
        .map((type) => app.evidence(type))
        .filter((block): block is EvidenceBlock => block !== undefined);
      if (!evidence.length) break; // nothing to add: show the decision's clarifier question below
      try {
        decision = await client.enrich({ sessionId, turnId, loopCycleId: decision.loopCycleId, evidence }, call);
      } catch (err) {
        if (!(err instanceof FailedPreconditionError)) throw err;
        // The cycle expired, was replaced or resolved: start the turn over,
        // under a new turnId (the same one would get the first answer
        // again: a Decide is applied once per turnId).
        decision = await client.decide({ ...request, turnId: randomUUID() }, call);
      }
      turn.outcomes.push(outcomeName(decision.outcome));
    }
    turn.decision = decision;

    switch (decision.outcome) {
      case Outcome.EXECUTE:
        app.execute(decision.targetId);
        turn.session = (
          await client.recordOutcome(
            { sessionId, turnId, decisionId: decision.decisionId, kind: OutcomeKind.EXECUTED, choiceId: decision.targetId },
            call,
          )
        ).session;
        // "Sounds good, is it covered?": the yes was acted on; the rest of
        // the input is the user's next turn. The app's chat answers a
        // question; a request ("also book me a cab") goes to Decide.
        if (decision.followUp) {
          const rest = decision.followUp;
          if (rest.kind === FollowUpKind.REQUEST) {
            const next = await handleTurn(client, app, sessionId, rest.text);
            turn.outcomes.push(...next.outcomes);
          } else {
            app.answer(rest.text);
          }
        }
        break;
      case Outcome.CLARIFY:
      case Outcome.NEED_MORE_INFO: {
        // (In a real app the pick arrives with the user's next message.)
        // clarifier.kind "confirmation": the first option is high risk
        // (RISK_HIGH) and was not said in so many words; act on it only
        // when the user confirms it.
        const picked = app.ask(decision.clarifier?.question ?? '', decision.clarifier?.optionIds ?? []);
        // The user sees the clarifier's options, in its order: that is the
        // screen the answer in words comes with ("the second one").
        app.asked = clarifierScreen(app.screen, decision.clarifier?.optionIds ?? []);
        if (picked !== undefined) {
          turn.session = (
            await client.recordOutcome(
              { sessionId, turnId, decisionId: decision.decisionId, kind: OutcomeKind.ACCEPTED, choiceId: picked },
              call,
            )
          ).session;
        }
        break;
      }
      case Outcome.ESCAPE: {
        if (decision.escapeReason === 'question_intent') {
          // A question: the app's chat answers it; `about` says which
          // options it concerns (a hint, never a choice: nothing runs).
          app.answerAbout(text, decision.about);
          break;
        }
        if (decision.escapeReason !== 'declined') {
          // cancel (drop the task), no_active_context, or command
          // (targetId is then the command's id).
          app.route(decision.escapeReason, text);
          break;
        }
        // The user refused what was proposed ("no thanks"), not the task:
        // keep it open, show something else, and tell ladderd which option
        // was refused when the screen proposed one, so it is not offered
        // first again.
        const onScreen = app.screen.options;
        const refused = onScreen?.asked === Asked.CONFIRMATION ? (onScreen.candidates ?? []).map((c) => c.id ?? '') : [];
        app.showSomethingElse(refused);
        for (const choiceId of refused) {
          turn.session = (
            await client.recordOutcome(
              { sessionId, turnId, decisionId: decision.decisionId, kind: OutcomeKind.REJECTED, choiceId },
              call,
            )
          ).session;
        }
        break;
      }
      default:
        app.route(`unknown outcome ${decision.outcome}`, text);
    }
  } catch (err) {
    if (!(err instanceof LadderError)) throw err;
    // INVALID_ARGUMENT / RESOURCE_EXHAUSTED: the request the app built is
    // wrong or too big (the message names the field); DEADLINE_EXCEEDED /
    // UNAVAILABLE: ladderd is slow or down. Either way, answer the turn
    // without it.
    turn.error = err;
    app.route(`ladderd error ${err.codeName}`, text);
  }
  return turn;
}

/** The options a clarifier shows, in its order, as the screen of the turn
 * that answers it: the candidates of its optionIds, found among what the app
 * sent. */
function clarifierScreen(screen: Screen, optionIds: string[]): OptionSet {
  const byId = new Map([...(screen.options?.candidates ?? []), ...(screen.widgetItems ?? [])].map((c) => [c.id, c]));
  return {
    optionSetId: screen.options?.optionSetId ?? 'clarifier',
    scope: screen.options?.scope ?? Scope.CHAT,
    candidates: optionIds.flatMap((id) => byId.get(id) ?? []),
  };
}

// ------------------------------------------------------------ scenarios --

const cand = (id: string, label: string, risk: Risk = Risk.UNSPECIFIED, sublabel = ''): Candidate => ({
  id,
  label,
  risk,
  sublabel,
});

const PANELS: OptionSet = {
  optionSetId: 'set-1',
  scope: Scope.CHAT,
  candidates: [cand('links-panels', 'Links Panels'), cand('links-panel-d', 'Links Panel D'), cand('links-panel-e', 'Links Panel E')],
};

// The same panels and one destructive action: RISK_HIGH executes only when
// the user says its whole label (or an alias), or picks it by position from
// a clarifier; anything less asks to confirm it.
const RISKY: OptionSet = {
  optionSetId: 'set-2',
  scope: Scope.CHAT,
  candidates: [...(PANELS.candidates ?? []), cand('delete-panels', 'Delete All Panels', Risk.HIGH)],
};

interface Scenario {
  name: string;
  screen: Screen;
  text: string;
  outcomes: string[];
  targetId?: string;
  optionIds?: string[];
  escapeReason?: string;
  confirmId?: string;
  /** What `about` leads with (closest first; what follows may vary). */
  about?: string[];
}

const SCENARIOS: Scenario[] = [
  { name: 'execute', screen: { options: PANELS }, text: 'open links panel d', outcomes: ['OUTCOME_EXECUTE'], targetId: 'links-panel-d' },
  {
    name: 'clarify',
    screen: { options: PANELS },
    text: 'links panel',
    outcomes: ['OUTCOME_CLARIFY'],
    optionIds: ['links-panel-d', 'links-panel-e'],
  },
  {
    name: 'escape',
    screen: { options: PANELS },
    text: 'what is links panel d?',
    outcomes: ['OUTCOME_ESCAPE'],
    escapeReason: 'question_intent',
    about: ['links-panel-d'],
  },
  { name: 'confirm', screen: { options: RISKY }, text: 'delete', outcomes: ['OUTCOME_CLARIFY'], confirmId: 'delete-panels' },
  {
    name: 'need_more_info',
    screen: {
      widgetItems: [cand('w-1', 'Panel D')],
      olderChatOptions: [cand('chat-d', 'Links Panel D'), cand('chat-e', 'Links Panel E')],
    },
    text: 'open panel d from chat',
    outcomes: ['OUTCOME_NEED_MORE_INFO', 'OUTCOME_EXECUTE'],
    targetId: 'chat-d',
  },
];

const same = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);

// ------------------------------------------------------- a conversation --

// Three tables that differ only by their day and time.
const TABLES: OptionSet = {
  optionSetId: 'tables',
  scope: Scope.CHAT,
  candidates: [
    cand('fri-6pm', 'Table for 2', Risk.UNSPECIFIED, 'Friday 6:00 pm'),
    cand('fri-7pm', 'Table for 2', Risk.UNSPECIFIED, 'Friday 7:00 pm'),
    cand('sat-8pm', 'Table for 2', Risk.UNSPECIFIED, 'Saturday 8:00 pm'),
  ],
};

// The app's own questions: it proposes one option and asks the user to
// confirm it (ASKED_CONFIRMATION), so that "yes" or "no thanks" is read as
// the answer. A RISK_HIGH option is confirmed by that "yes".
const WINE: OptionSet = {
  optionSetId: 'wine',
  scope: Scope.CHAT,
  asked: Asked.CONFIRMATION,
  candidates: [cand('add-wine', 'Add the wine pairing ($30)')],
};
const DEPOSIT: OptionSet = {
  optionSetId: 'deposit',
  scope: Scope.CHAT,
  asked: Asked.CONFIRMATION,
  candidates: [cand('pay-deposit', 'Pay the $20 deposit', Risk.HIGH)],
};
const PARKING: OptionSet = {
  optionSetId: 'parking',
  scope: Scope.CHAT,
  asked: Asked.CONFIRMATION,
  candidates: [cand('add-parking', 'Reserve a parking spot ($5)')],
};

/** One turn of the conversation: what the user says to the screen. */
interface Reply {
  name: string;
  /** The screen the reply comes with; undefined: the last clarifier's
   * options, in its order (what the user was shown). */
  options: OptionSet | undefined;
  text: string;
  outcome: string;
  /** The kind of reply the decision's trace shows (handledByTier "reply"). */
  kind?: string;
  targetId?: string;
  optionIds?: string[];
  escapeReason?: string;
  /** The rest of the input the decision hands back (Decision.followUp). */
  followUp?: string;
}

const CONVERSATION: Reply[] = [
  // ladderd asks "which one?" (its question is kept in the session) ...
  {
    name: 'which_one',
    options: TABLES,
    text: 'book a table for 2',
    outcome: 'OUTCOME_CLARIFY',
    optionIds: ['fri-6pm', 'fri-7pm', 'sat-8pm'],
  },
  // ... answered by a detail only one of them shows (a day or a time an
  // option shows is a value: the match rung reads it, not a reply).
  { name: 'detail', options: undefined, text: 'the saturday one', outcome: 'OUTCOME_EXECUTE', targetId: 'sat-8pm' },
  // The execute refused: ladderd records it as rejected and asks again
  // among the others.
  {
    name: 'not_that_one',
    options: TABLES,
    text: 'no, not that one',
    outcome: 'OUTCOME_CLARIFY',
    kind: 'repair',
    optionIds: ['fri-6pm', 'fri-7pm'],
  },
  { name: 'detail_again', options: undefined, text: 'the 7 pm one', outcome: 'OUTCOME_EXECUTE', targetId: 'fri-7pm' },
  // The app's own confirmations: one declined, one answered "yes".
  { name: 'declined', options: WINE, text: 'no thanks', outcome: 'OUTCOME_ESCAPE', kind: 'decline', escapeReason: 'declined' },
  { name: 'yes', options: DEPOSIT, text: 'yes', outcome: 'OUTCOME_EXECUTE', kind: 'affirm', targetId: 'pay-deposit' },
  // A yes that also asks: executed, and the question handed back.
  {
    name: 'yes_and_ask',
    options: PARKING,
    text: 'Yes please, is it covered?',
    outcome: 'OUTCOME_EXECUTE',
    kind: 'affirm',
    targetId: 'add-parking',
    followUp: 'is it covered?',
  },
  // A clarifier answered by position: the second of the options it showed,
  // in its order (the screen re-sent as it was would put another option
  // second, and both would be asked).
  {
    name: 'which_panel',
    options: PANELS,
    text: 'links panel',
    outcome: 'OUTCOME_CLARIFY',
    optionIds: ['links-panel-d', 'links-panel-e'],
  },
  { name: 'position', options: undefined, text: 'the second one', outcome: 'OUTCOME_EXECUTE', kind: 'position', targetId: 'links-panel-e' },
];

/** The kind of reply the trace shows, when the reply rung decided. */
function replyKind(d: Decision): string {
  if (d.handledByTier !== 'reply') return '';
  const read = d.trace.filter((step) => step.rung === 'reply' && step.outcome !== 'pass').map((step) => step.outcome);
  return read[read.length - 1] ?? '';
}

function checkReply(r: Reply, turn: Turn): string[] {
  if (turn.error) return [`unexpected error ${turn.error.message}`];
  const d = turn.decision!;
  const problems: string[] = [];
  if (!same(turn.outcomes, [r.outcome])) problems.push(`outcomes ${turn.outcomes}, expected ${r.outcome}`);
  if (replyKind(d) !== (r.kind ?? '')) problems.push(`read as ${d.handledByTier} ${replyKind(d)}, expected reply ${r.kind ?? ''}`);
  if (r.targetId && d.targetId !== r.targetId) problems.push(`targetId ${d.targetId}, expected ${r.targetId}`);
  const optionIds = d.clarifier?.optionIds ?? [];
  if (r.optionIds && !same(optionIds, r.optionIds)) problems.push(`clarifier.optionIds ${optionIds}, expected ${r.optionIds}`);
  if (r.escapeReason && d.escapeReason !== r.escapeReason) problems.push(`escapeReason ${d.escapeReason}, expected ${r.escapeReason}`);
  const followUp = d.followUp?.text ?? '';
  if (followUp !== (r.followUp ?? '')) problems.push(`followUp ${JSON.stringify(followUp)}, expected ${JSON.stringify(r.followUp ?? '')}`);
  return problems;
}


function check(s: Scenario, turn: Turn, existed: boolean): string[] {
  if (turn.error) return [`unexpected error ${turn.error.message}`];
  const d = turn.decision!;
  const problems: string[] = [];
  if (!same(turn.outcomes, s.outcomes)) problems.push(`outcomes ${turn.outcomes}, expected ${s.outcomes}`);
  if (s.targetId && d.targetId !== s.targetId) problems.push(`targetId ${d.targetId}, expected ${s.targetId}`);
  const optionIds = d.clarifier?.optionIds ?? [];
  if (s.optionIds && !same(optionIds, s.optionIds)) problems.push(`clarifier.optionIds ${optionIds}, expected ${s.optionIds}`);
  if (s.escapeReason && d.escapeReason !== s.escapeReason)
    problems.push(`escapeReason ${d.escapeReason}, expected ${s.escapeReason}`);
  if (s.about && !same(d.about.slice(0, s.about.length), s.about))
    problems.push(`about ${d.about}, expected it to lead with ${s.about}`);
  if (s.confirmId && (d.clarifier?.kind !== 'confirmation' || optionIds[0] !== s.confirmId))
    problems.push(`clarifier ${d.clarifier?.kind} [${optionIds}], expected a confirmation of ${s.confirmId}`);
  if ((d.outcome === Outcome.CLARIFY || d.outcome === Outcome.NEED_MORE_INFO) && !d.loopCycleId)
    problems.push('an unresolved decision without loopCycleId');
  const expectedChoice = s.targetId ?? s.confirmId ?? s.optionIds?.[0];
  if (expectedChoice && turn.session?.lastAcceptedChoiceId !== expectedChoice)
    problems.push(`session after RecordOutcome: ${JSON.stringify(turn.session)}`);
  if (!existed) problems.push('ResetSession: the session did not exist');
  return problems;
}

/** The refusals an app must handle, by class: [problems, what was seen]. */
async function checkErrors(client: Client, runId: string): Promise<[string[], string[]]> {
  const problems: string[] = [];
  const seen: string[] = [];
  const expect = async (error: typeof LadderError, needle: string, call: () => Promise<unknown>) => {
    try {
      await call();
      problems.push(`expected ${error.name}, the call succeeded`);
    } catch (err) {
      if (!(err instanceof LadderError)) throw err;
      if (!(err instanceof error) || !err.details.includes(needle))
        problems.push(`expected ${error.name} naming ${JSON.stringify(needle)}, got ${err.message}`);
      else seen.push(`${err.codeName}: ${err.details}`);
    }
  };
  await expect(InvalidArgumentError, 'session_id', () => client.decide({ input: 'hi' }));
  await expect(LimitExceededError, 'input', () => client.decide({ sessionId: `${runId}-big`, input: 'x'.repeat(5000) }));
  await expect(FailedPreconditionError, 'Decide', () =>
    client.enrich({
      sessionId: `${runId}-stale`,
      loopCycleId: 'a-cycle-that-never-was',
      evidence: [{ type: 'chat_recoverable_options', candidates: [cand('x', 'X')] }],
    }),
  );
  await expect(NotFoundError, 'not found', () => client.getSession({ sessionId: `${runId}-never-seen` }));
  return [problems, seen];
}

function parseArgs(argv: string[]): { address: string; deadlineMs: number } {
  let address = '127.0.0.1:50151';
  let deadlineMs = DEFAULT_TIMEOUT_MS;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--deadline-ms') deadlineMs = Number(argv[++i]);
    else if (argv[i] === '-h' || argv[i] === '--help') {
      console.log('usage: node dist/turnLoop.js [ADDRESS] [--deadline-ms N]');
      process.exit(0);
    } else address = argv[i];
  }
  return { address, deadlineMs };
}

async function main(): Promise<number> {
  const { address, deadlineMs } = parseArgs(process.argv.slice(2));
  const runId = randomUUID().slice(0, 8);
  const client = new Client({ address, timeoutMs: deadlineMs });
  try {
    try {
      await client.waitUntilReady(5000);
    } catch (err) {
      console.error(`cannot reach ladderd at ${address}: ${(err as Error).message}`);
      return 2;
    }

    let failures = 0;
    const report = (name: string, problems: string[], summary: string, notes: string[] = []) => {
      if (problems.length) failures++;
      console.log(`${(problems.length ? 'FAIL' : 'ok').padEnd(4)}  ${name.padEnd(15)} ${summary}`);
      for (const line of [...problems, ...notes]) console.log(`        ${line}`);
    };

    for (const s of SCENARIOS) {
      const sessionId = `ts-${runId}-${s.name}`;
      const app = new DemoApp(s.screen);
      const turn = await handleTurn(client, app, sessionId, s.text);
      const { existed } = await client.resetSession({ sessionId });
      report(s.name, check(s, turn, existed), `${turn.outcomes.join(' -> ')}  [${app.log.join('; ')}]`);
    }
    // One session: each turn is read against what was asked before it.
    const sessionId = `ts-${runId}-conversation`;
    const app = new DemoApp({}, false);
    for (const r of CONVERSATION) {
      app.screen = { options: r.options ?? app.asked };
      app.log = [];
      const turn = await handleTurn(client, app, sessionId, r.text);
      const kind = turn.decision ? replyKind(turn.decision) : '';
      const read = kind ? [`reply ${kind}`] : [];
      report(r.name, checkReply(r, turn), `${turn.outcomes.join(' -> ')}  [${[...read, ...app.log].join('; ')}]`);
    }
    await client.resetSession({ sessionId });

    const [problems, seen] = await checkErrors(client, `ts-${runId}`);
    report('errors', problems, 'refusals handled by status code', seen);

    const total = SCENARIOS.length + CONVERSATION.length + 1;
    console.log(`turn loop: ${total - failures} of ${total} scenarios as expected`);
    return failures ? 1 : 0;
  } finally {
    client.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);
