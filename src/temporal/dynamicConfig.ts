/**
 * Settings of the Temporal server that this service depends on, for every server it runs against: the
 * dev server (`npm start`, the tests, the bench), the production shape run here and docker-compose.
 *
 * `history.transferProcessorMaxPollRPS`: each history shard reads its queue of tasks bound for matching
 * (a workflow task, an activity task) at most this often. The default, 20 a second, holds each task up
 * to 50 ms once a shard is busy, and a session's steps are sequential, so the waits add up (time to
 * notary, P6 of the bench, docs/performance.md). 50 a second bounds the wait at 20 ms without reading the
 * queue in batches ten times smaller under load.
 */
export const TEMPORAL_DYNAMIC_CONFIG: Record<string, number> = {
  'history.transferProcessorMaxPollRPS': 50,
};

/** The settings as a Temporal dynamic config file (one unconstrained value each). */
export function dynamicConfigYaml(): string {
  return [
    '# Written from src/temporal/dynamicConfig.ts (a test keeps them equal): why each value, there.',
    ...Object.entries(TEMPORAL_DYNAMIC_CONFIG).flatMap(([key, value]) => [`${key}:`, `  - value: ${value}`]),
    '',
  ].join('\n');
}

/** `--dynamic-config-value key=value` flags for `temporal server start-dev`. */
export function dynamicConfigCliArgs(): string[] {
  return Object.entries(TEMPORAL_DYNAMIC_CONFIG).flatMap(([key, value]) => [
    '--dynamic-config-value',
    `${key}=${JSON.stringify(value)}`,
  ]);
}
