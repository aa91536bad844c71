export { Client, type CallOptions, type ClientOptions, type RequestOf, type ResponseOf } from './client.js';
export { ADDRESS_ENV, DEFAULT_ADDRESS, DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_MS, RPCS, TOKEN_ENV, TOKEN_FILE_ENV, type Method, } from './calls.js';
export { CODE_NAMES, DeadlineExceededError, FailedPreconditionError, InternalError, InvalidArgumentError, LadderError, LimitExceededError, NotFoundError, OverloadedError, PermissionDeniedError, UnavailableError, } from './errors.js';
export * from './gen/ladder/v1/ladder_pb.js';
