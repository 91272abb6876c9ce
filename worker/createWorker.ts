import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions, type WorkflowBundleOption } from '@temporalio/worker';
import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config';
import type { Logger } from '../src/logger';
import { createActivities, mediaMakingActivities } from '../activities';
import { mediaQueuesOf } from '../core/temporal/mediaQueues';
import { NotarizationThreads } from '../src/notarizedPdf/notarizationThreads';
import { installTemporalRuntime } from './temporalRuntime';
import { createMailTransport } from '../src/mail/transport';
import { JanusAdmin } from '../src/media/janusAdmin';
import { mediaServerUrl } from '../src/mediaConfig';
import { createObjectStore } from '../src/objectStore/createObjectStore';

export interface WorkerDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  temporalAddress: string;
  /** A prebuilt bundle (tests build one per run); otherwise the workflows are bundled at start-up. */
  workflowBundle?: WorkflowBundleOption;
}

export interface RunningWorker {
  /** One per task queue the process serves: the sessions', and the media queues'. */
  workers: Worker[];
  /** Resolves when every worker has stopped (after shutdown() or a fatal error in one). */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

export const workflowsPath = require.resolve('../workflows');
/** Written by `npm run build` (scripts/bundle-workflows.ts) into dist/, beside the compiled workflows. */
export const PREBUILT_WORKFLOW_BUNDLE = path.join(__dirname, '..', 'workflow-bundle.js');

/** The bundle given, else the one built with this code, else the workflows bundled now (running from source). */
function workflowCode(
  given?: WorkflowBundleOption,
): { workflowBundle: WorkflowBundleOption } | { workflowsPath: string } {
  if (given) return { workflowBundle: given };
  if (fs.existsSync(PREBUILT_WORKFLOW_BUNDLE))
    return { workflowBundle: { codePath: PREBUILT_WORKFLOW_BUNDLE } };
  return { workflowsPath };
}

/**
 * The process's workers, by its roles (WORKER_ROLES): the sessions' (their workflows and activities) and
 * the media workers (the evidence queue, and the composing queue whose long jobs run in the background),
 * each with its own slots, so that they scale apart.
 */
export async function startWorker(deps: WorkerDependencies): Promise<RunningWorker> {
  installTemporalRuntime(deps.logger, deps.config.workerMetricsAddress);
  const { config } = deps;
  const connection = await NativeConnection.connect({ address: deps.temporalAddress });
  const finalization = new NotarizationThreads(config.finalizationWork);
  const mail = createMailTransport(config.smtpUrl);
  const activityDeps = {
    config,
    logger: deps.logger,
    sequelize: deps.sequelize,
    temporal: new Client({ connection, namespace: config.temporalNamespace }),
    finalization,
    mail,
    media: new JanusAdmin(mediaServerUrl(config.media), config.media.adminKey),
    objectStore: createObjectStore(config.objectStore),
  };
  const common: Pick<WorkerOptions, 'connection' | 'namespace' | 'shutdownGraceTime' | 'shutdownForceTime'> =
    {
      connection,
      namespace: config.temporalNamespace,
      // Activities get this long to finish on shutdown before they are cancelled.
      shutdownGraceTime: '10s',
      shutdownForceTime: '30s',
    };
  const workers: Worker[] = [];
  try {
    if (config.workerRoles.includes('sessions'))
      workers.push(
        await Worker.create({
          ...common,
          taskQueue: config.taskQueue,
          ...workflowCode(deps.workflowBundle),
          activities: createActivities(activityDeps),
          // Bounded memory per worker: a session spends most of its life waiting for people or a timer, so
          // one evicted is rebuilt from its history when it next wakes rather than held in memory meanwhile.
          maxCachedWorkflows: config.workerCachedWorkflows,
        }),
      );
    if (config.workerRoles.includes('media')) {
      const queues = mediaQueuesOf(config.taskQueue);
      const { makeEvidence, composeGrid } = mediaMakingActivities(activityDeps);
      workers.push(
        await Worker.create({
          ...common,
          taskQueue: queues.evidence,
          activities: { makeEvidence },
          maxConcurrentActivityTaskExecutions: config.mediaWork.evidenceSlots,
        }),
        await Worker.create({
          ...common,
          taskQueue: queues.composing,
          activities: { composeGrid },
          maxConcurrentActivityTaskExecutions: config.mediaWork.composingSlots,
        }),
      );
    }
  } catch (err) {
    await Promise.all([connection.close(), finalization.close(), mail?.close()]);
    throw err;
  }
  const done = Promise.all(workers.map((w) => w.run()))
    .then(() => undefined)
    .finally(() => Promise.all([connection.close(), finalization.close(), mail?.close()]));
  return {
    workers,
    done,
    async shutdown() {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
