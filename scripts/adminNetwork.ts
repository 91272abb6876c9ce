import { InvalidArgumentError, type Command } from 'commander';
import { removeNetworkPerson } from '../src/network/networkRemoval';
import { networkRoster } from '../src/network/networkRoster';
import type { NetworkRole } from '../src/auth/people';
import { DomainError } from '../src/domain/errors';
import { replaceWitnessesWhoLeft, requeueSessionsOfNotaryWhoLeft } from '../src/sessions/networkDepartures';
import { queuedSessions, tellSessionsOfAvailableNotary } from '../src/network/waitingSessions';
import { SetupError } from '../src/setupErrors';
import type { Sequelize } from 'sequelize';
import { email, print, usState, withDatabase, withTemporal } from './adminSupport';

const REASON_MAX = 500;

function reason(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new InvalidArgumentError('must say why');
  if (trimmed.length > REASON_MAX) throw new InvalidArgumentError(`must be at most ${REASON_MAX} characters`);
  return trimmed;
}

const QUEUE_MAX = 1000;

function queueLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > QUEUE_MAX)
    throw new InvalidArgumentError(`must be a whole number from 1 to ${QUEUE_MAX}`);
  return n;
}

/** Temporal lost between the removal and the word to its sessions: the same removal again tells them. */
const untold = (email: string) =>
  new DomainError(
    'unavailable',
    `${email} was removed, but Temporal was lost before every session they held was told: run the same removal again once Temporal is back`,
  );

/**
 * A notary just made available is offered at once to the sessions waiting longest (`waiting_sessions_told`).
 * The notary is kept either way: with Temporal unreachable (null) those sessions find them at their next
 * attempt, as the warning says.
 */
export async function tellWaitingSessions(sequelize: Sequelize, notaryId: string): Promise<string[] | null> {
  try {
    return await withTemporal((temporal) => tellSessionsOfAvailableNotary(sequelize, temporal, notaryId));
  } catch (err) {
    if (!(err instanceof SetupError) && !(err instanceof DomainError && err.kind === 'unavailable'))
      throw err;
    process.stderr.write(
      `warning: ${err.message.split('\n')[0]}. Sessions waiting for a notary are offered this one at their ` +
        'next attempt (NOTARY_RETRY_INTERVAL) instead of at once.\n',
    );
    return null;
  }
}

/** `list-network`, `notary-queue`; `remove-network-notary` and `remove-network-witness`: a person leaves the network at once. */
export function addNetworkCommands(program: Command): void {
  program
    .command('list-network')
    .description(
      "The network's notaries (with their commissions) and witnesses, by e-mail; --include-removed adds those removed",
    )
    .option('--include-removed', 'also list those removed from the network, with when and why')
    .action(async (opts: { includeRemoved?: boolean }) => {
      print(
        await withDatabase((sequelize) =>
          networkRoster(sequelize, { includeRemoved: !!opts.includeRemoved }),
        ),
      );
    });
  program
    .command('notary-queue')
    .description(
      'The on-demand sessions waiting for a network notary, longest first: their integrator, the state asked ' +
        'for, since when, whom they are offered to now, and how many network notaries may take them at all',
    )
    .option('--state <state>', 'only sessions asking for this state, e.g. TX or Texas', usState)
    .option('--limit <n>', `at most this many sessions (1–${QUEUE_MAX}, default 100)`, queueLimit, 100)
    .action(async (opts: { state?: string; limit: number }) => {
      print({ sessions: await withDatabase((sequelize) => queuedSessions(sequelize, opts)) });
    });
  for (const role of ['notary', 'witness'] as NetworkRole[])
    program
      .command(`remove-network-${role}`)
      .description(
        `Remove a ${role} from the network at once (a commission revoked, a person who left): nothing more is ` +
          'offered or assigned to them and their sign-in ends; lists their unfinished sessions to follow up' +
          (role === 'witness'
            ? ', and those not begun, where another witness takes their place (replacing_in)'
            : ', and those not begun, offered to another notary at once (back_to_queue)') +
          '. Run again, it tells those sessions once more and changes nothing else',
      )
      .requiredOption('--email <email>', `e-mail of the network ${role}`, email)
      .requiredOption('--reason <text>', 'why, kept with the removal', reason)
      .action(async (opts: { email: string; reason: string }) => {
        // Temporal is reached first, so that an outage refuses the removal rather than leave it untold.
        const removal = await withTemporal((temporal) =>
          withDatabase(async (sequelize) => {
            const removed = await removeNetworkPerson(sequelize, role, opts);
            try {
              if (role === 'notary')
                return {
                  ...removed,
                  back_to_queue: await requeueSessionsOfNotaryWhoLeft(sequelize, temporal, removed.id),
                };
              const left = await replaceWitnessesWhoLeft(sequelize, temporal, { witnessId: removed.id });
              return { ...removed, replacing_in: left.map((w) => w.bn_session_id) };
            } catch (err) {
              throw err instanceof DomainError && err.kind === 'unavailable' ? untold(removed.email) : err;
            }
          }),
        );
        print(removal);
      });
}
