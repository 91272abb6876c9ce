import autocannon from 'autocannon';
import { PDFDocument, StandardFonts } from 'pdf-lib';

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

/** A real PDF of about 50 KB: 20 pages of a deed's text. */
export async function deedPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const line =
    'The grantor conveys and warrants to the grantee the real property described herein, with all improvements.';
  for (let p = 0; p < 20; p++) {
    const page = pdf.addPage([612, 792]);
    for (let l = 0; l < 40; l++)
      page.drawText(`${p * 40 + l + 1}. ${line}`, { x: 36, y: 756 - l * 18, size: 9, font });
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

export const createUrlOf = (base: string) => `${base}/api/integrationsv2/sessions`;
