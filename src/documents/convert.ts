import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DocumentError } from './decode';
import { containedDocx, knownGoodDocx } from './docxPackage';
import { newConversionDirectory, removeAbandonedConversionDirectories } from './conversionDirectories';
import { imageToPdf, textToPdf } from './renderToPdf';

const run = promisify(execFile);

/** Where LibreOffice is, and when the document's work must be over (DOCUMENT_TIMEOUT from its start). */
export interface LibreOffice {
  path: string;
  /** Epoch ms; LibreOffice is stopped before it, so no run outlives the thread the pool gives up on. */
  deadline: number;
}

/** Whether a document of this name is converted by LibreOffice (seconds of a child process), not in-thread. */
export function convertsThroughLibreOffice(name: string): boolean {
  return /\.docx$/i.test(name);
}

/** The server cannot convert right now (LibreOffice missing or failing): not the integrator's fault. */
export class ConversionUnavailableError extends Error {}

let isolation: Promise<string[]> | undefined;

/**
 * The prefix that runs a command in a network namespace with no interfaces: `unshare -n` as root,
 * `unshare -rn` (a user namespace) otherwise, or nothing where the OS allows neither.
 */
function networkIsolation(): Promise<string[]> {
  isolation ??= (async () => {
    for (const prefix of [
      ['unshare', '-n'],
      ['unshare', '-rn'],
    ]) {
      try {
        await run(prefix[0], [...prefix.slice(1), 'true'], { timeout: 5_000 });
        return prefix;
      } catch {
        // Not permitted here: try the next way, or run without one.
      }
    }
    return [];
  })();
  return isolation;
}

let boundedRuns: Promise<void> | undefined;

/**
 * That coreutils `timeout` runs where LibreOffice is to run, checked until it does: without it no run
 * could start, and LibreOffice's own "not found" (exit 127 from `timeout`) would name the wrong program.
 */
function assertTimeoutRuns(isolation: string[]): Promise<void> {
  const [command, ...args] = [...isolation, 'timeout', '5s', 'true'];
  boundedRuns ??= run(command, args, { timeout: 5_000 }).then(
    () => undefined,
    (err: unknown) => {
      boundedRuns = undefined;
      const { code } = err as { code?: unknown };
      throw new ConversionUnavailableError(
        `DOCX conversion needs coreutils' timeout (${code === 'ENOENT' || code === 127 ? 'not found' : failureOf(err)})`,
      );
    },
  );
  return boundedRuns;
}

/** Runs of LibreOffice one conversion may take: a second, on a fresh profile, after one that failed. */
const LIBREOFFICE_ATTEMPTS = 2;
/** One run's time at most, whatever the deadline. */
const LIBREOFFICE_RUN_MS = 120_000;
/**
 * How long before the deadline a run is stopped: the pool ends a thread that outlives the deadline, and a
 * LibreOffice started from it would then run on, unbounded, with no one left to stop it.
 */
const STOP_BEFORE_DEADLINE_MS = 1_000;

/** coreutils `timeout`'s exit when it stopped the command: TERM (124), or KILL after its grace (137). */
const STOPPED_BY_TIMEOUT = new Set([124, 137]);

function runLibreOffice(
  isolation: string[],
  libreOffice: LibreOffice,
  input: string,
  dir: string,
  profile: string,
): Promise<unknown> {
  const timeout = Math.min(LIBREOFFICE_RUN_MS, libreOffice.deadline - STOP_BEFORE_DEADLINE_MS - Date.now());
  if (timeout <= 0)
    throw new ConversionUnavailableError('no time was left for LibreOffice within DOCUMENT_TIMEOUT');
  const [command, ...args] = [
    ...isolation,
    // The run's limit is kept by a process of its own as well as by this thread's timer: were the API
    // process to die (a crash, an OOM kill), `timeout` still stops LibreOffice and what it started.
    'timeout',
    '--kill-after=1s',
    `${timeout / 1000}s`,
    libreOffice.path,
    '--headless',
    '--norestore',
    `-env:UserInstallation=file://${path.join(dir, `profile-${profile}`)}`,
    '--convert-to',
    'pdf',
    '--outdir',
    dir,
    input,
  ];
  return run(command, args, {
    timeout,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TMPDIR: dir, LANG: 'C.UTF-8' },
  });
}

/** How a run failed, for the answer: its exit and the last thing it said, never its command line. */
function failureOf(err: unknown): string {
  const { code, signal, stderr } = err as { code?: unknown; signal?: unknown; stderr?: unknown };
  const said = String(stderr ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
  const exit = signal ? `signal ${String(signal)}` : `exit ${String(code)}`;
  return (said ? `${exit}: ${said}` : exit).slice(0, 200);
}

/**
 * A conversion's directory lasts at most its three LibreOffice runs (two for the document, one for the
 * known-good check), each bounded by LIBREOFFICE_RUN_MS; one from a process this one cannot see is taken
 * as abandoned once untouched for ten times that, whatever DOCUMENT_TIMEOUT its process had.
 */
const ABANDONED_AFTER_MS = 10 * (LIBREOFFICE_ATTEMPTS + 1) * LIBREOFFICE_RUN_MS;

/** Removes what conversions of processes that died mid-conversion left. Run at start-up. */
export function removeAbandonedConversions(): void {
  removeAbandonedConversionDirectories(ABANDONED_AFTER_MS);
}

/** LibreOffice ran and failed: neither missing nor out of time. The document's fault, or the host's. */
class LibreOfficeFailed extends Error {}

/** One `.docx` file to PDF, beside it; run again on a fresh profile after a failure, `runs` in all. */
async function convertFile(
  isolation: string[],
  libreOffice: LibreOffice,
  input: string,
  runs: number,
): Promise<Buffer> {
  const dir = path.dirname(input);
  const name = path.basename(input, '.docx');
  for (let attempt = 1; ; attempt++) {
    try {
      await runLibreOffice(isolation, libreOffice, input, dir, `${name}-${attempt}`);
      break;
    } catch (err) {
      if (err instanceof ConversionUnavailableError) throw err;
      // 127: `timeout` (known to run) could not find LibreOffice to execute.
      const { code, killed } = err as { code?: string | number; killed?: boolean };
      if (code === 127) {
        throw new ConversionUnavailableError(
          `DOCX conversion needs LibreOffice (${libreOffice.path} not found)`,
        );
      }
      // A run that failed at once may pass on a fresh profile; one that ran out of time would not.
      if (killed || STOPPED_BY_TIMEOUT.has(code as number))
        throw new ConversionUnavailableError(
          `LibreOffice did not finish in time (${LIBREOFFICE_RUN_MS / 1000} s at most, within DOCUMENT_TIMEOUT)`,
        );
      if (attempt < runs) continue;
      throw new LibreOfficeFailed(failureOf(err));
    }
  }
  const output = path.join(dir, `${name}.pdf`);
  // LibreOffice's answer to a document it cannot load: it exits 0 and writes nothing.
  if (!fs.existsSync(output)) throw new Error('LibreOffice produced no PDF');
  return fs.readFileSync(output);
}

/** Whether this LibreOffice converts a document any working one does: it is up, whatever failed before. */
async function convertsKnownGoodDocx(isolation: string[], libreOffice: LibreOffice, dir: string) {
  const input = path.join(dir, 'check.docx');
  fs.writeFileSync(input, knownGoodDocx());
  try {
    await convertFile(isolation, libreOffice, input, 1);
    return true;
  } catch {
    return false;
  }
}

/**
 * DOCX through LibreOffice in headless mode, with a profile of its own so conversions can run side by
 * side. What it is given has no external relationships; it runs without the service's environment
 * (no secrets, no database URL) and, where the OS allows, without a network.
 */
async function docxToPdf(bytes: Buffer, libreOffice: LibreOffice, label: string): Promise<Buffer> {
  const contained = containedDocx(bytes, label);
  const dir = newConversionDirectory();
  try {
    const input = path.join(dir, 'document.docx');
    fs.writeFileSync(input, contained);
    const isolation = await networkIsolation();
    await assertTimeoutRuns(isolation);
    try {
      return await convertFile(isolation, libreOffice, input, LIBREOFFICE_ATTEMPTS);
    } catch (err) {
      if (!(err instanceof LibreOfficeFailed)) throw err;
      // Failing twice is the document's doing when LibreOffice converts another: the caller is told so
      // (toPdf: damaged or unsupported) instead of being asked to retry what will fail again.
      if (await convertsKnownGoodDocx(isolation, libreOffice, dir)) throw err;
      throw new ConversionUnavailableError(`LibreOffice could not run: ${err.message}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The PDF form of an uploaded document: PDFs as they are, other formats converted here, at upload, so
 * that a document that cannot be converted is refused now (naming its field), never at completion.
 */
export async function toPdf(
  bytes: Buffer,
  extension: string,
  libreOffice: LibreOffice,
  label: string,
): Promise<Buffer> {
  try {
    return await convert(bytes, extension, libreOffice, label);
  } catch (err) {
    if (err instanceof ConversionUnavailableError || err instanceof DocumentError) throw err;
    throw new DocumentError(
      `${label}.base64Doc could not be converted to PDF: the .${extension} content is damaged or unsupported`,
    );
  }
}

function convert(bytes: Buffer, extension: string, libreOffice: LibreOffice, label: string): Promise<Buffer> {
  switch (extension) {
    case 'pdf':
      return Promise.resolve(bytes);
    case 'png':
      return imageToPdf(bytes, 'png');
    case 'jpg':
    case 'jpeg':
      return imageToPdf(bytes, 'jpg');
    case 'txt':
      return textToPdf(bytes, `${label}.base64Doc`);
    case 'docx':
      return docxToPdf(bytes, libreOffice, label);
    default:
      throw new DocumentError(`.${extension} documents are not supported`);
  }
}
