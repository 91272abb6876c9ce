import crypto from 'node:crypto';

/** A videoroom request's failure as Janus reports it (`error_code`, `error`). */
export class JanusRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`Janus: ${message} (${code})`);
  }
}

/** Janus's videoroom error codes the service handles: the room exists, or does not. */
export const ROOM_EXISTS = 427;
export const NO_SUCH_ROOM = 426;

interface JanusReply {
  janus: string;
  data?: { id: number };
  error?: { code: number; reason: string };
  plugindata?: { data: Record<string, unknown> & { error_code?: number; error?: string } };
}

/**
 * The service's own requests to Janus's videoroom (create, exist, destroy rooms), over its HTTP API:
 * each in a Janus session of its own, created and destroyed around it, so nothing is left to keep alive.
 */
export class JanusAdmin {
  constructor(
    private readonly serverUrl: string,
    private readonly adminKey: string | undefined,
    private readonly timeoutMs = 10_000,
  ) {}

  async videoroom<T extends Record<string, unknown>>(body: Record<string, unknown>): Promise<T> {
    const session = await this.post('', { janus: 'create' });
    const sessionId = session.data!.id;
    try {
      const handle = await this.post(`/${sessionId}`, { janus: 'attach', plugin: 'janus.plugin.videoroom' });
      const reply = await this.post(`/${sessionId}/${handle.data!.id}`, {
        janus: 'message',
        body: { ...body, ...(this.adminKey ? { admin_key: this.adminKey } : {}) },
      });
      const data = reply.plugindata?.data;
      if (!data) throw new Error(`Janus answered a videoroom request with ${reply.janus}`);
      if (data.error_code) throw new JanusRequestError(data.error_code, String(data.error));
      return data as T;
    } finally {
      await this.post(`/${sessionId}`, { janus: 'destroy' }).catch(() => undefined);
    }
  }

  private async post(path: string, body: Record<string, unknown>): Promise<JanusReply> {
    const response = await fetch(`${this.serverUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, transaction: crypto.randomUUID() }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const reply = (await response.json()) as JanusReply;
    if (reply.janus === 'error') throw new JanusRequestError(reply.error!.code, reply.error!.reason);
    return reply;
  }
}
