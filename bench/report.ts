export interface Row {
  id: string;
  measure: string;
  value: string;
  target: string;
  /** null: a figure reported beside the targets, with none of its own. */
  pass: boolean | null;
}

export const rows: Row[] = [];

export const verdict = (row: Row) => (row.pass === null ? '—' : row.pass ? 'PASS' : 'FAIL');

export const record = (row: Row) => {
  rows.push(row);
  process.stderr.write(`[bench] ${row.id} ${row.measure}: ${row.value} (${row.target}) ${verdict(row)}\n`);
};

export const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;

export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
