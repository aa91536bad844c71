import { LadderError } from './errors.js';
export declare const DEFAULT_ADDRESS = "127.0.0.1:50151";
export declare const DEFAULT_TIMEOUT_MS = 1500;
export declare const DEFAULT_MAX_ATTEMPTS = 3;
export declare const FIRST_BACKOFF_MS = 50;
/** How long one readiness probe waits for the health service's answer. */
export declare const PROBE_TIMEOUT_MS = 500;
export declare const ADDRESS_ENV = "LADDERD_ADDRESS";
export declare const TOKEN_ENV = "LADDERD_ADMIN_TOKEN";
/** The daemon's own variable for its token file (admin.token_file): an app
 * container that mounts the same Secret finds the token with no more setup. */
export declare const TOKEN_FILE_ENV = "LADDER_ADMIN__TOKEN_FILE";
export declare const SERVICE = "ladder.v1.Arbiter";
/** Each call: its RPC name, messages, whether it is a control call (served
 * off loopback only with the admin token) and whether it is retried. */
export declare const RPCS: {
    readonly decide: {
        readonly name: "Decide";
        readonly request: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").DecideRequest>;
        readonly response: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").Decision>;
        readonly control: false;
        readonly repeatable: true;
    };
    readonly enrich: {
        readonly name: "Enrich";
        readonly request: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").EnrichRequest>;
        readonly response: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").Decision>;
        readonly control: false;
        readonly repeatable: false;
    };
    readonly clarify: {
        readonly name: "Clarify";
        readonly request: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").ClarifyRequest>;
        readonly response: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").ClarifyResponse>;
        readonly control: false;
        readonly repeatable: true;
    };
    readonly extract: {
        readonly name: "Extract";
        readonly request: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").ExtractRequest>;
        readonly response: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").ExtractResponse>;
        readonly control: false;
        readonly repeatable: true;
    };
    readonly recordOutcome: {
        readonly name: "RecordOutcome";
        readonly request: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").RecordOutcomeRequest>;
        readonly response: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").RecordOutcomeResponse>;
        readonly control: true;
        readonly repeatable: false;
    };
    readonly getSession: {
        readonly name: "GetSession";
        readonly request: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").GetSessionRequest>;
        readonly response: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").SessionState>;
        readonly control: true;
        readonly repeatable: true;
    };
    readonly resetSession: {
        readonly name: "ResetSession";
        readonly request: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").ResetSessionRequest>;
        readonly response: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").ResetSessionResponse>;
        readonly control: true;
        readonly repeatable: true;
    };
    readonly getRollout: {
        readonly name: "GetRollout";
        readonly request: import("@bufbuild/protobuf/codegenv2").GenMessage<import("@bufbuild/protobuf").Message<"ladder.v1.GetRolloutRequest">>;
        readonly response: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").RolloutState>;
        readonly control: false;
        readonly repeatable: true;
    };
    readonly resetRollout: {
        readonly name: "ResetRollout";
        readonly request: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").ResetRolloutRequest>;
        readonly response: import("@bufbuild/protobuf/codegenv2").GenMessage<import("./gen/ladder/v1/ladder_pb.js").RolloutState>;
        readonly control: true;
        readonly repeatable: true;
    };
};
export type Method = keyof typeof RPCS;
export declare function resolveAddress(address?: string): string;
/** The option, else $LADDERD_ADMIN_TOKEN, else the file that
 * $LADDER_ADMIN__TOKEN_FILE names (read as the daemon reads it: surrounding
 * whitespace ignored). Undefined: control calls go without a token, which
 * the daemon accepts from loopback only. */
export declare function resolveToken(adminToken?: string): string | undefined;
/** A Decide without a turnId, with a fresh one (a UUID) that this call's
 * retries reuse. The app's request is left as it was (a copy carries the
 * id): a request sent again for the next turn gets a new one. */
export declare function withTurnId<R>(method: Method, request: R): R;
/** Whether to try again: a call safe to repeat (a Decide with its turnId),
 * after UNAVAILABLE or the load-shedding refusal. */
export declare function shouldRetry(method: Method, request: unknown, err: LadderError, attempt: number, maxAttempts: number): boolean;
/** The pause before attempt `attempt + 1`: 50 ms doubling, plus up to as
 * much again at random (so shed callers do not come back together). */
export declare function backoffMs(attempt: number): number;
