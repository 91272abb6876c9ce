import { pdfBytes, MB10 } from '../test/support/documents';
import { record, percentile, ms } from './report';
import { procStatus, resetPeak } from './processes';
import { createUrlOf } from './load';
/** P2: one create with a 10 MB document: latency, and how far it raises the API's peak RSS. */
export async function p2TenMegabyteCreate(
  apiUrl: string,
  apiPid: number,
  auth: Record<string, string>,
  bodyWith: (doc: string) => string,
) {
  const big = (await pdfBytes(3, MB10)).toString('base64');
  const post = async (body: string) => {
    const t0 = performance.now();
    const res = await fetch(createUrlOf(apiUrl), { method: 'POST', headers: auth, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`create failed: ${res.status}`);
    return performance.now() - t0;
  };
  // The first create of a process starts its document threads; that is start-up, not a create's cost.
  await post(bodyWith((await pdfBytes(1)).toString('base64')));
  const latencies: number[] = [];
  const growth: number[] = [];
  for (let i = 0; i < 5; i++) {
    const body = bodyWith(big);
    const before = procStatus(apiPid, 'VmRSS');
    resetPeak(apiPid);
    latencies.push(await post(body));
    growth.push(procStatus(apiPid, 'VmHWM') - before);
  }
  record({
    id: 'P2',
    measure: 'create with one 10 MB document (5 runs)',
    value: `p50 ${ms(percentile(latencies, 50))}, max ${ms(Math.max(...latencies))}`,
    target: '< 1 s',
    pass: Math.max(...latencies) < 1_000,
  });
  record({
    id: 'P2',
    measure: 'API peak RSS growth during that create',
    value: `max ${Math.max(...growth).toFixed(1)} MiB, p50 ${percentile(growth, 50).toFixed(1)} MiB (document 10 MiB) [${growth.map((g) => g.toFixed(0)).join(' ')}]`,
    target: '≤ 4× the document (40 MiB)',
    pass: Math.max(...growth) <= 40,
  });
}
