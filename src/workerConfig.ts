import { ConfigError } from './configError';
import { bindAddress, integer, optional, type Env } from './envValues';

export type WorkerRole = 'sessions' | 'media';

/** How a worker process runs; docs/configuration.md lists each variable. */
export interface WorkerConfig {
  /** Sessions a worker keeps in memory between their steps (about 1 MB each); others are replayed when they wake. */
  workerCachedWorkflows: number;
  /** What a worker process runs (sessions, media work or both), and how many media jobs of each kind at once. */
  workerRoles: WorkerRole[];
  mediaWork: { evidenceSlots: number; composingSlots: number };
  /** Where the worker serves Temporal's worker metrics to Prometheus (`/metrics`); unset: not served. */
  workerMetricsAddress?: string;
}

export function workerConfig(env: Env): WorkerConfig {
  const roles = (optional(env, 'WORKER_ROLES') ?? 'sessions,media').split(',').map((r) => r.trim());
  if (roles.some((r) => r !== 'sessions' && r !== 'media'))
    throw new ConfigError('WORKER_ROLES must list sessions, media or both (sessions,media)');
  return {
    workerCachedWorkflows: integer(env, 'WORKER_CACHED_WORKFLOWS', 150),
    workerRoles: [...new Set(roles)] as WorkerRole[],
    mediaWork: {
      evidenceSlots: integer(env, 'MEDIA_EVIDENCE_SLOTS', 2),
      composingSlots: integer(env, 'MEDIA_COMPOSING_SLOTS', 1),
    },
    workerMetricsAddress: bindAddress(env, 'WORKER_METRICS_ADDRESS'),
  };
}
