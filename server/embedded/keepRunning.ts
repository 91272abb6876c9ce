import type { BackingLog } from '../runtime';
import type { ManagedChild } from './childProcess';

const RELAUNCH_AFTER_MS = 1_000;
/** An exit this soon after a launch counts towards giving up, as deploy/janus/start.sh does. */
const QUICK_EXIT_MS = 10_000;
const QUICK_EXITS_TO_GIVE_UP = 5;

export interface KeptRunning {
  /** Stops it and launches it again, as a crash and restart would; launches it if it was stopped. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Launches a server and launches it again a second after it exits on its own, so that a crash does not
 * leave `npm start` without it. Five exits (or failed launches) in a row within seconds of launching
 * leave it down, logged: such a server is broken, not unlucky.
 */
export async function keepRunning(opts: {
  name: string;
  launch: () => Promise<ManagedChild>;
  halt: (server: ManagedChild) => Promise<void>;
  log: BackingLog;
}): Promise<KeptRunning> {
  let current: ManagedChild | undefined;
  let wanted = false;
  let quickExits = 0;
  let relaunching: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  const countExit = (launchedAt: number) => {
    quickExits = Date.now() - launchedAt < QUICK_EXIT_MS ? quickExits + 1 : 0;
  };

  const launchWatched = async () => {
    const launchedAt = Date.now();
    const server = await opts.launch();
    current = server;
    const exited = () => {
      if (!wanted || current !== server) return;
      countExit(launchedAt);
      const { signalCode, exitCode } = server.child;
      relaunching = relaunch(`exited (${signalCode ?? `code ${exitCode}`})`);
    };
    // It may have died between serving and now, its 'exit' already emitted.
    if (server.exited()) exited();
    else server.child.once('exit', exited);
  };
  const relaunch = async (why: string) => {
    while (wanted) {
      if (quickExits >= QUICK_EXITS_TO_GIVE_UP) {
        opts.log(
          `${opts.name} ${why}, ${quickExits} times within seconds of starting: left stopped`,
          'error',
        );
        return;
      }
      opts.log(`${opts.name} ${why}: starting it again`, 'warn');
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        setTimeout(resolve, RELAUNCH_AFTER_MS).unref();
      });
      if (!wanted) return;
      const launchedAt = Date.now();
      try {
        return await launchWatched();
      } catch (err) {
        countExit(launchedAt);
        why = `did not start (${(err as Error).message.split('\n')[0]})`;
      }
    }
  };
  const stop = async () => {
    wanted = false;
    wakeUp?.();
    await relaunching;
    if (current) await opts.halt(current);
    current = undefined;
  };
  const start = async () => {
    wanted = true;
    quickExits = 0;
    await launchWatched();
  };
  await start();
  return {
    async restart() {
      await stop();
      await start();
    },
    stop,
  };
}
