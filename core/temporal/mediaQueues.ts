/**
 * The task queues media work runs on, named after the sessions' queue so that workflow code and workers
 * agree without configuration: the evidence (short, on the session's path) and composing (long, in the
 * background) each have their own, so a long composition never keeps an act's evidence waiting.
 */
export function mediaQueuesOf(sessionQueue: string) {
  return { evidence: `${sessionQueue}-media`, composing: `${sessionQueue}-media-compose` };
}
