// ladderd's TypeScript client.
//
//   import { Client } from 'ladderd';
//   const ladder = new Client();                 // 127.0.0.1:50151, 1500 ms per call
//   await ladder.waitUntilReady();
//   const decision = await ladder.decide({ sessionId, input: 'open links panel d', options: onScreen });
//
// Messages, enums and schemas are re-exported from the generated code
// (Outcome.EXECUTE, DecisionSchema, ...); errors are LadderError and its
// subclasses, one per status an app handles; 'ladderd/testing' has
// FakeLadderd, a stand-in for the daemon in an app's own tests.
// docs/calling.md has the rules (deadlines, retries, readiness); the
// package's README has every option.
export { Client } from './client.js';
export { ADDRESS_ENV, DEFAULT_ADDRESS, DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_MS, RPCS, TOKEN_ENV, TOKEN_FILE_ENV, } from './calls.js';
export { CODE_NAMES, DeadlineExceededError, FailedPreconditionError, InternalError, InvalidArgumentError, LadderError, LimitExceededError, NotFoundError, OverloadedError, PermissionDeniedError, UnavailableError, } from './errors.js';
export * from './gen/ladder/v1/ladder_pb.js';
