import autocannon from 'autocannon';

export const CONNECTIONS = 16;

export const ROUND_SECONDS = 8;

export interface Load {
  /** Of each 2xx answer, in ms: rounds' percentiles taken together rather than averaged. */
  latencies: number[];
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
}

/** autocannon against one create endpoint: requests/s and latency percentiles, counting every non-2xx. */
export async function load(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { connections: number; seconds?: number; amount?: number },
): Promise<Load> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: 'POST',
        headers,
        body,
        connections: opts.connections,
        ...(opts.amount ? { amount: opts.amount } : { duration: opts.seconds ?? ROUND_SECONDS }),
        timeout: 60,
      },
      (err, finished) => (err ? reject(err) : resolve(finished)),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
    });
  });
  return {
    latencies,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

export const createUrlOf = (base: string) => `${base}/api/integrationsv2/sessions`;
