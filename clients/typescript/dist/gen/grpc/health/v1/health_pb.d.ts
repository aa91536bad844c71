import type { GenEnum, GenFile, GenMessage, GenService } from "@bufbuild/protobuf/codegenv2";
import type { Message } from "@bufbuild/protobuf";
/**
 * Describes the file grpc/health/v1/health.proto.
 */
export declare const file_grpc_health_v1_health: GenFile;
/**
 * @generated from message grpc.health.v1.HealthCheckRequest
 */
export type HealthCheckRequest = Message<"grpc.health.v1.HealthCheckRequest"> & {
    /**
     * @generated from field: string service = 1;
     */
    service: string;
};
/**
 * Describes the message grpc.health.v1.HealthCheckRequest.
 * Use `create(HealthCheckRequestSchema)` to create a new message.
 */
export declare const HealthCheckRequestSchema: GenMessage<HealthCheckRequest>;
/**
 * @generated from message grpc.health.v1.HealthCheckResponse
 */
export type HealthCheckResponse = Message<"grpc.health.v1.HealthCheckResponse"> & {
    /**
     * @generated from field: grpc.health.v1.HealthCheckResponse.ServingStatus status = 1;
     */
    status: HealthCheckResponse_ServingStatus;
};
/**
 * Describes the message grpc.health.v1.HealthCheckResponse.
 * Use `create(HealthCheckResponseSchema)` to create a new message.
 */
export declare const HealthCheckResponseSchema: GenMessage<HealthCheckResponse>;
/**
 * @generated from enum grpc.health.v1.HealthCheckResponse.ServingStatus
 */
export declare enum HealthCheckResponse_ServingStatus {
    /**
     * @generated from enum value: UNKNOWN = 0;
     */
    UNKNOWN = 0,
    /**
     * @generated from enum value: SERVING = 1;
     */
    SERVING = 1,
    /**
     * @generated from enum value: NOT_SERVING = 2;
     */
    NOT_SERVING = 2,
    /**
     * Used only by the Watch method.
     *
     * @generated from enum value: SERVICE_UNKNOWN = 3;
     */
    SERVICE_UNKNOWN = 3
}
/**
 * Describes the enum grpc.health.v1.HealthCheckResponse.ServingStatus.
 */
export declare const HealthCheckResponse_ServingStatusSchema: GenEnum<HealthCheckResponse_ServingStatus>;
/**
 * @generated from service grpc.health.v1.Health
 */
export declare const Health: GenService<{
    /**
     * If the requested service is unknown, the call will fail with status
     * NOT_FOUND.
     *
     * @generated from rpc grpc.health.v1.Health.Check
     */
    check: {
        methodKind: "unary";
        input: typeof HealthCheckRequestSchema;
        output: typeof HealthCheckResponseSchema;
    };
    /**
     * Performs a watch for the serving status of the requested service.
     * The server will immediately send back a message indicating the current
     * serving status.  It will then subsequently send a new message whenever
     * the service's serving status changes.
     *
     * If the requested service is unknown when the call is received, the
     * server will send a message setting the serving status to
     * SERVICE_UNKNOWN but will *not* terminate the call.  If at some
     * future point, the serving status of the service becomes known, the
     * server will send a new message with the service's serving status.
     *
     * If the call terminates with status UNIMPLEMENTED, then clients
     * should assume this method is not supported and should not retry the
     * call.  If the call terminates with any other status (including OK),
     * clients should retry the call with appropriate exponential backoff.
     *
     * @generated from rpc grpc.health.v1.Health.Watch
     */
    watch: {
        methodKind: "server_streaming";
        input: typeof HealthCheckRequestSchema;
        output: typeof HealthCheckResponseSchema;
    };
}>;
