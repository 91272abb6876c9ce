import fs from 'node:fs';
import { spawnServer, startFailure, type ManagedChild } from './childProcess';
import { readPid, stopOrphan, writePidFile } from './pidFile';
import { ensurePortsFree, type ServerPort } from './ports';

export interface Launcher {
  launch(): Promise<ManagedChild>;
  halt(server: ManagedChild): Promise<void>;
}

/**
 * Launching and halting a server whose pid we keep in a file, so that the next launch finds one orphaned
 * by a killed `npm start` and stops it first. A launch onto a port another process holds is refused; one
 * that never serves is killed, and fails naming the last line of the server's log.
 */
export function pidFileLauncher(opts: {
  command: string;
  args: string[];
  logFile: string;
  pidFile: string;
  /** Names the orphan: a word of its command line, and the server in a refusal. */
  orphan: { command: string; what: string };
  /** The ports it listens on, refused when another process holds one. */
  ports: readonly ServerPort[];
  /** Resolves once the server serves; rejects when it exits or takes too long. */
  serving: (exited: () => boolean) => Promise<void>;
  haltWithinMs: number;
}): Launcher {
  return {
    async launch() {
      await stopOrphan(readPid(opts.pidFile), opts.orphan.command, opts.orphan.what);
      await ensurePortsFree(opts.orphan.what, opts.ports);
      const server = spawnServer(opts.command, opts.args, opts.logFile, { exitSignal: 'SIGTERM' });
      writePidFile(opts.pidFile, server.child.pid);
      try {
        await opts.serving(server.exited);
      } catch (err) {
        await server.stop('SIGKILL', 0);
        throw startFailure((err as Error).message, opts.logFile);
      }
      return server;
    },
    async halt(server) {
      await server.stop('SIGTERM', opts.haltWithinMs);
      fs.rmSync(opts.pidFile, { force: true });
    },
  };
}
