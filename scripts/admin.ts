import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, type Config } from '../src/config';
import { runningApiFrontUrl } from '../server/runningApi';
import { addBrandingCommand } from './adminBranding';
import { addNetworkCommands, tellWaitingSessions } from './adminNetwork';
import {
  addNetworkNotary,
  type NetworkNotaryInput,
  ConflictError,
  createAccount,
  NotFoundError,
  renewNetworkNotaryCommission,
  rotateKey,
} from '../src/accounts/accounts';
import { listAccounts } from '../src/accounts/accountList';
import { readAuditTrail, verifyChain } from '../src/audit/auditChain';
import { DomainError } from '../src/domain/errors';
import { operatorLine } from '../src/setupErrors';
import { addNetworkWitness, createNetworkLoginLink } from '../src/network/networkPeople';
import { updateSession } from '../src/temporal/sessionUpdates';
import { retryFinalizationUpdate } from '../core/session/messages';
import { queryRows, rowExists } from '../src/db/query';
import { commissionHistory } from '../src/team/commissionChanges';
import {
  UsageError,
  absoluteUrl,
  isoDate,
  usState,
  brandColor,
  delayThreshold,
  email,
  uuid,
  withDatabase,
  withTemporal,
  print,
} from './adminSupport';
/** FRONT_URL or PUBLIC_BASE_URL as set here, else the running service's, else the default. */
const frontUrlOf = (config: Config) =>
  process.env.FRONT_URL || process.env.PUBLIC_BASE_URL
    ? config.frontUrl
    : (runningApiFrontUrl(config.dataDir) ?? config.frontUrl);

const program = new Command('admin')
  .description(
    'Provision accounts, keys and the network (notaries, witnesses, their login links); verify audit chains; ' +
      'retry failed finalizations',
  )
  .exitOverride()
  // main() prints every error once, as JSON; commander's own line would make stderr two lines.
  .configureOutput({ writeErr: (text) => process.stderr.write(text), outputError: () => undefined });

program
  .command('create-account')
  .description('Create a business account with its owner admin, API key and vendor API key')
  .requiredOption('--name <name>', 'account name')
  .option('--auto-onboarding', 'complete notary onboarding automatically on invite', false)
  .option('--base-url <url>', 'white-label base URL for signing links', absoluteUrl)
  .option('--completion-redirect-url <url>', 'where participants go after completion', absoluteUrl)
  .option('--admin-email <email>', "the owner admin's e-mail", email)
  .option('--brand-color <#rrggbb>', "the participant pages' brand colour", brandColor)
  .option(
    '--delay-threshold <json>',
    'the default late-notary modal: {"title","message","actions"}',
    delayThreshold,
  )
  .option(
    '--test-mode',
    'sessions run without media and their documents say TEST - NOT A NOTARIAL ACT (an integration sandbox)',
    false,
  )
  .action(
    async (opts: {
      name: string;
      autoOnboarding: boolean;
      baseUrl?: string;
      completionRedirectUrl?: string;
      adminEmail?: string;
      brandColor?: string;
      delayThreshold?: object;
      testMode: boolean;
    }) => {
      if (!opts.name.trim()) throw new UsageError('--name must not be empty');
      const created = await withDatabase((sequelize) =>
        createAccount(sequelize, {
          name: opts.name.trim(),
          autoOnboarding: opts.autoOnboarding,
          whiteLabelBaseUrl: opts.baseUrl,
          completionRedirectUrl: opts.completionRedirectUrl,
          ownerEmail: opts.adminEmail,
          brandColor: opts.brandColor,
          delayThreshold: opts.delayThreshold,
          testMode: opts.testMode,
        }),
      );
      print({
        account_id: created.account_id,
        api_key: created.api_key,
        vendor_api_key: created.vendor_api_key,
        test_mode: opts.testMode,
      });
    },
  );

program
  .command('list-accounts')
  .description("The business accounts, oldest first: id, name, test mode, owner admin's e-mail, created")
  .option('--name <text>', 'only those whose name contains the text (any case)')
  .action(async (opts: { name?: string }) => {
    print({ accounts: await withDatabase((sequelize) => listAccounts(sequelize, opts.name)) });
  });

program
  .command('add-network-notary')
  .description(
    "Add a notary to the service's on-demand network; the sessions waiting longest for one are offered them at once",
  )
  .requiredOption('--email <email>', 'e-mail', email)
  .requiredOption('--first-name <name>', 'first name')
  .requiredOption('--last-name <name>', 'last name')
  .requiredOption('--state <state>', 'commission state, e.g. TX or Texas', usState)
  .requiredOption('--commission-number <number>', 'commission number')
  .requiredOption(
    '--commission-expires-on <date>',
    'commission expiry, YYYY-MM-DD (sessions are offered while at least 24 hours of it are left)',
    isoDate,
  )
  .action(async (opts: NetworkNotaryInput) => {
    print(
      await withDatabase(async (sequelize) => {
        const added = await addNetworkNotary(sequelize, opts);
        return { ...added, waiting_sessions_told: await tellWaitingSessions(sequelize, added.notary_id) };
      }),
    );
  });

program
  .command('renew-network-notary')
  .description(
    "Record a network notary's renewed commission (its state too, when it changed, once they have no unfinished session or open offer)",
  )
  .requiredOption('--email <email>', 'e-mail of the network notary', email)
  .option('--state <state>', 'commission state, when it changed, e.g. TX or Texas', usState)
  .requiredOption('--commission-number <number>', 'commission number')
  .requiredOption('--commission-expires-on <date>', 'commission expiry, YYYY-MM-DD', isoDate)
  .action(
    async (opts: {
      email: string;
      state?: string;
      commissionNumber: string;
      commissionExpiresOn: string;
    }) => {
      print(
        await withDatabase(async (sequelize) => {
          const renewed = await renewNetworkNotaryCommission(sequelize, opts);
          return {
            ...renewed,
            waiting_sessions_told: await tellWaitingSessions(sequelize, renewed.notary_id),
          };
        }),
      );
    },
  );

program
  .command('commission-history')
  .description(
    "Every change of a notary's commission (team or network), oldest first: who asked, through which credential, what proved it",
  )
  .requiredOption('--email <email>', 'e-mail of the notary', email)
  .action(async (opts: { email: string }) => {
    print({ changes: await withDatabase((sequelize) => commissionHistory(sequelize, opts.email)) });
  });

program
  .command('add-network-witness')
  .description("Add a witness to the service's network (for sessions' number_of_service_witnesses)")
  .requiredOption('--email <email>', 'e-mail', email)
  .requiredOption('--first-name <name>', 'first name')
  .requiredOption('--last-name <name>', 'last name')
  .action(async (opts: { email: string; firstName: string; lastName: string }) => {
    print(await withDatabase((sequelize) => addNetworkWitness(sequelize, opts)));
  });

program
  .command('network-login-link')
  .description('A 12-hour login link for a network notary or witness: it signs them in to the notary console')
  .requiredOption('--email <email>', 'e-mail of the network notary or witness', email)
  .action(async (opts: { email: string }) => {
    const config = loadConfig();
    print(
      await withDatabase((sequelize) =>
        createNetworkLoginLink(
          sequelize,
          { frontUrl: frontUrlOf(config), lifetimeSeconds: config.loginLinkLifetimeSeconds },
          opts.email,
        ),
      ),
    );
  });

program
  .command('rotate-key')
  .description('Replace an account key; the old key and its tokens stop working at once')
  .requiredOption('--account <id>', 'account id', uuid)
  .requiredOption('--kind <kind>', 'api or vendor', (value: string) => {
    if (value !== 'api' && value !== 'vendor') throw new InvalidArgumentError('must be api or vendor');
    return value;
  })
  .action(async (opts: { account: string; kind: 'api' | 'vendor' }) => {
    const key = await withDatabase((sequelize) => rotateKey(sequelize, opts.account, opts.kind));
    print(opts.kind === 'api' ? { api_key: key } : { vendor_api_key: key });
  });

program
  .command('verify-audit')
  .description("Check a session's audit hash chain; exits 1 when it is broken")
  .requiredOption('--session <id>', 'bn_session_id', uuid)
  .action(async (opts: { session: string }) => {
    const verdict = await withDatabase(async (sequelize) => {
      const known = await rowExists(sequelize, 'SELECT 1 FROM sessions WHERE id = $1', {
        bind: [opts.session],
      });
      if (!known) throw new NotFoundError(`Session ${opts.session} not found`);
      return verifyChain(await readAuditTrail(sequelize, opts.session));
    });
    print({ session_id: opts.session, ...verdict });
    if (!verdict.intact) process.exitCode = 1;
  });

/** The retried finalization answers once the workflow has taken it; the documents are notarized after. */
program
  .command('retry-finalization')
  .description('Notarize again the documents of a session whose documents_status is failed')
  .requiredOption('--session <id>', 'bn_session_id', uuid)
  .action(async (opts: { session: string }) => {
    const workflowId = await withDatabase(async (sequelize) => {
      const sessions = await queryRows<{ workflow_id: string; documents_status: string }>(
        sequelize,
        'SELECT workflow_id, documents_status FROM sessions WHERE id = $1',
        { bind: [opts.session] },
      );
      if (!sessions.length) throw new NotFoundError(`Session ${opts.session} not found`);
      // A session whose documents went out has no workflow left to ask.
      if (sessions[0].documents_status !== 'failed')
        throw new ConflictError(`Documents cannot be retried while ${sessions[0].documents_status}`);
      return sessions[0].workflow_id;
    });
    await withTemporal(async (temporal) => {
      const answer = await updateSession(temporal, workflowId, retryFinalizationUpdate, []);
      if (answer.outcome === 'refused') throw new ConflictError(answer.refusal.reason);
      if (answer.outcome === 'already_done')
        throw new ConflictError('The documents are already being retried');
      // Temporal's own words ("workflow execution already completed") do not say what the operator can do.
      if (answer.outcome === 'closed')
        throw new ConflictError(
          `The session's workflow ${workflowId} is not running (terminated, or failed): reset it to its last workflow task (temporal workflow reset --type LastWorkflowTask), then retry`,
        );
      const { status, documentsStatus } = answer.result;
      print({ bn_session_id: opts.session, status, documents_status: documentsStatus });
    });
  });
addBrandingCommand(program);
addNetworkCommands(program);

async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    const e = err as Error & { code?: string; exitCode?: number };
    // commander.help with a non-zero exit code is the help shown because no command was given.
    if (e.code === 'commander.help') process.exit(e.exitCode === 0 ? 0 : 2);
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') process.exit(0);
    const usage = e.code?.startsWith('commander.') || err instanceof UsageError;
    const known =
      usage || err instanceof NotFoundError || err instanceof ConflictError || err instanceof DomainError;
    const message = known
      ? e.message.replace(/^error: /, '')
      : operatorLine(err, process.env.LOG_LEVEL === 'debug');
    process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    process.exit(usage ? 2 : 1);
  }
}

void main();
