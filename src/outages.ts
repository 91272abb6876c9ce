import {
  isGrpcServiceError,
  NamespaceNotFoundError,
  ServiceError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { google } from '@temporalio/proto';
import { ConnectionError as DatabaseConnectionError, TimeoutError as DatabaseTimeoutError } from 'sequelize';

// gRPC status codes that mean "not reachable in time" rather than "refused": CANCELLED, DEADLINE_EXCEEDED,
// RESOURCE_EXHAUSTED, UNAVAILABLE.
const TRANSIENT_GRPC_CODES = new Set([1, 4, 8, 14]);

function transientGrpc(err: unknown): boolean {
  return isGrpcServiceError(err) && TRANSIENT_GRPC_CODES.has(err.code);
}

const GRPC_INVALID_ARGUMENT = 3;
const GRPC_FAILED_PRECONDITION = 9;
const WORKFLOW_NOT_READY = 'type.googleapis.com/temporal.api.errordetails.v1.WorkflowNotReadyFailure';

/**
 * The server aborting an update it had not accepted, because the workflow task that carried it failed:
 * e.g. the task would close the workflow while an activity's completion had just arrived (UnhandledCommand).
 * The server runs a new task at once; the update was never applied, so sending it again is safe.
 * Told by the failure's type in the gRPC status details (the server's WorkflowNotReady), not its message,
 * which a server release may reword.
 */
export function workflowNotReady(err: unknown): boolean {
  const cause = err instanceof ServiceError ? err.cause : err;
  if (!isGrpcServiceError(cause) || cause.code !== GRPC_FAILED_PRECONDITION) return false;
  const details = cause.metadata?.get('grpc-status-details-bin')[0];
  if (!Buffer.isBuffer(details)) return false;
  try {
    return google.rpc.Status.decode(details).details.some((d) => d.type_url === WORKFLOW_NOT_READY);
  } catch {
    return false;
  }
}

/**
 * The server refusing an update that a workflow task carried to the worker, answered without the update
 * accepted or rejected (its failure type UnprocessedUpdate): seen under a flood of joins on one session.
 * The workflow never saw it, so sending it again is safe.
 */
export function updateNotProcessed(err: unknown): boolean {
  return (
    err instanceof WorkflowUpdateFailedError &&
    err.cause instanceof ApplicationFailure &&
    err.cause.type === 'UnprocessedUpdate'
  );
}

/**
 * Temporal refusing a start because its namespace does not resolve the session search attributes: each
 * process registers them at start-up, and a fresh cluster was seen refusing starts for a moment after
 * that registration; it is the namespace not serving yet, not a bad request.
 */
function searchAttributesNotServed(err: unknown): boolean {
  return (
    isGrpcServiceError(err) &&
    err.code === GRPC_INVALID_ARGUMENT &&
    /no mapping defined for search attribute/.test(err.details)
  );
}

/**
 * Whether an error means a backing service (PostgreSQL or Temporal) could not be reached in time, as
 * opposed to a bug: the former is a retryable 503 for the caller.
 */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseConnectionError || err instanceof DatabaseTimeoutError) return true;
  // The service's namespace gone while it runs (deleted, or a cluster restored without it): every
  // session call fails until an operator restores it, which a retry then meets; the integrator's
  // request was not at fault.
  if (err instanceof NamespaceNotFoundError) return true;
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError || transientGrpc(err)) return true;
  // An update the server kept aborting, or the worker kept leaving, until the deadline: the session's
  // workflow is not taking it yet.
  if (workflowNotReady(err) || updateNotProcessed(err)) return true;
  if (err instanceof ServiceError && (transientGrpc(err.cause) || searchAttributesNotServed(err.cause)))
    return true;
  // node-postgres errors, bare or wrapped by Sequelize (`parent`): a socket that failed, PostgreSQL's
  // connection exceptions (class 08) and its shutdown family (57P01-57P03: the server is going away), and
  // node-postgres's own uncoded errors for a connection lost mid-query.
  const pgError = (err as { parent?: unknown })?.parent ?? err;
  const { code, message } = (pgError ?? {}) as { code?: unknown; message?: unknown };
  if (typeof message === 'string' && PG_CONNECTION_LOST.test(message)) return true;
  if (typeof code !== 'string') return false;
  return (
    code === 'ECONNREFUSED' || code === 'ECONNRESET' || code.startsWith('08') || /^57P0[123]$/.test(code)
  );
}

const PG_CONNECTION_LOST =
  /^(Connection terminated( unexpectedly)?|Client has encountered a connection error and is not queryable)$/;
