import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { testEnvironment } from './environment';

const run = promisify(execFile);

/** The command's JSON answer, or null where it printed text (help). */
const jsonOf = (text: string) => {
  try {
    return JSON.parse(text.trim().split('\n').pop()!);
  } catch {
    return null;
  }
};
const ROOT = path.join(__dirname, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** The operator's CLI as a separate process, like `npm run admin -- …`. */
export async function admin(
  args: string[],
  env: NodeJS.ProcessEnv = testEnvironment().processEnv,
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(
      path.join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['scripts/admin.ts', ...args],
      {
        cwd: ROOT,
        env,
      },
    );
    return { code: 0, stdout, stderr, json: jsonOf(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return {
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
      json: jsonOf(e.stderr),
    };
  }
}
