import type { SessionPlan } from '../core/session/plan';
import type { SessionStatus } from '../core/session/messages';
import crypto from 'node:crypto';
import Koa from 'koa';
import getRawBody from 'raw-body';
import type { Sequelize, Transaction } from 'sequelize';
import { createDatabase } from '../src/db/database';
import { execute, queryRows } from '../src/db/query';
import { storeBlob } from '../src/documents/blobStore';
import { connectTemporal } from '../src/temporal/client';
import { sessionSearchAttributes } from '../src/sessions/sessionWorkflows';
import { WORKFLOW_TYPES, type SessionWorkflow } from '../core/temporal/workflows';

/**
 * The floor of P1 (`npm run bench`): the least a create can do on the same PostgreSQL and Temporal. A bare
 * Koa handler that parses the same JSON body, decodes and hashes the document, inserts the same rows
 * (session, participant, document bytes, document, outbox) in one transaction, starts the session's
 * workflow inside it and commits. No validation, no authentication, no document checks.
 * FLOOR_SEARCH_ATTRIBUTES=session: the workflow also starts with the search attributes the API sets on a
 * session's (`sessionSearchAttributes`), a second floor P1 reports beside the bare one.
 * Env: PORT, DATABASE_URL, TEMPORAL_ADDRESS, FLOOR_ACCOUNT_ID, FLOOR_TASK_QUEUE, FLOOR_SEARCH_ATTRIBUTES.
 */
/** An on-demand session of one signer, now, as the API plans such a create. */
const PLAN: SessionPlan = {
  holdInvitesUntilPretagged: false,
  deliveryMode: 'immediately',
  notary: { kind: 'network' },
  primarySignerIndex: 0,
  witnessesRequired: 0,
  serviceWitnesses: 0,
  identityRequired: [],
  testMode: true,
};

/** The status such a session starts in (its row's, as the API records it). */
const STATUS: SessionStatus = 'awaiting_notary';

const WITH_SEARCH_ATTRIBUTES = process.env.FLOOR_SEARCH_ATTRIBUTES === 'session';

/** The session's workflow, started inside the transaction that writes its rows. */
async function startWorkflow(
  temporal: Awaited<ReturnType<typeof connectTemporal>>,
  sequelize: Sequelize,
  transaction: Transaction,
  session: {
    sessionId: string;
    workflowId: string;
    taskQueue: string;
    accountId: string;
    notarizationId: string;
  },
) {
  const [xact] = await queryRows<{ id: string }>(sequelize, 'SELECT pg_current_xact_id()::text AS id', {
    transaction,
  });
  await temporal.client.workflow.start<SessionWorkflow>(WORKFLOW_TYPES.session, {
    workflowId: session.workflowId,
    taskQueue: session.taskQueue,
    args: [
      {
        sessionId: session.sessionId,
        transactionId: xact.id,
        accountId: session.accountId,
        notarizationId: session.notarizationId,
        plan: PLAN,
      },
    ],
    ...(WITH_SEARCH_ATTRIBUTES && { typedSearchAttributes: sessionSearchAttributes(session, STATUS) }),
  });
}

async function main() {
  const env = (name: string) =>
    process.env[name] ??
    (() => {
      throw new Error(`${name} is required`);
    })();
  const accountId = env('FLOOR_ACCOUNT_ID');
  const taskQueue = env('FLOOR_TASK_QUEUE');
  const sequelize = createDatabase(env('DATABASE_URL'));
  const temporal = await connectTemporal(env('TEMPORAL_ADDRESS'), 'default');
  const app = new Koa();
  app.use(async (ctx) => {
    const body = JSON.parse((await getRawBody(ctx.req, { limit: '80mb' })).toString('utf8'));
    const signer = body.all_signers[0];
    const document = body.session_documents[0];
    const bytes = Buffer.from(document.base64Doc, 'base64');
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    const sessionId = crypto.randomUUID();
    const workflowId = `session-${sessionId}`;
    await sequelize.transaction(async (transaction: Transaction) => {
      await execute(
        sequelize,
        `INSERT INTO sessions (id, account_id, notarization_id, status, signing_type, session_type,
                               notarization_timing_type, options, workflow_id, plan)
         VALUES ($1, $2, $3, 'awaiting_notary', $4, $5, $6, '{}', $7, $8)`,
        {
          bind: [
            sessionId,
            accountId,
            body.notarization_id,
            body.signing_type,
            body.session_type,
            body.notarization_timing_type,
            workflowId,
            JSON.stringify(PLAN),
          ],
          transaction,
        },
      );
      const [participant] = await queryRows<{ id: string }>(
        sequelize,
        `INSERT INTO participants (session_id, role, index, email, first_name, last_name, token_hash)
         VALUES ($1, 'signer', 0, $2, $3, $4, $5) RETURNING id`,
        {
          bind: [sessionId, signer.email, signer.first_name, signer.last_name, crypto.randomBytes(32)],
          transaction,
        },
      );
      const blobId = await storeBlob(sequelize, accountId, bytes, sha256, transaction);
      await execute(
        sequelize,
        `INSERT INTO documents (session_id, position, name, content_type, size_bytes, sha256, blob_id)
         VALUES ($1, 0, $2, 'application/pdf', $3, $4, $5)`,
        { bind: [sessionId, document.name, bytes.length, sha256, blobId], transaction },
      );
      await execute(
        sequelize,
        `INSERT INTO email_outbox (session_id, participant_id, kind, to_email, subject, body, state)
         VALUES ($1, $2, 'invitation', $3, 'Your notarization session', 'Join at the link', 'held')`,
        { bind: [sessionId, participant.id, signer.email], transaction },
      );
      await startWorkflow(temporal, sequelize, transaction, {
        sessionId,
        workflowId,
        taskQueue,
        accountId,
        notarizationId: body.notarization_id,
      });
    });
    ctx.body = { response: 'Pass', bn_session_id: sessionId };
  });
  app.listen(Number(env('PORT')), '127.0.0.1');
  // An orderly exit on the bench's SIGTERM, so that under --cpu-prof the floor writes its profile as the API does.
  process.once('SIGTERM', () => process.exit(0));
}

main().catch((err: unknown) => {
  process.stderr.write(`floor server: ${(err as Error).message}\n`);
  process.exit(1);
});
