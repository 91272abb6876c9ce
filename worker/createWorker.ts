import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config';
import type { Logger } from '../src/logger';
import { createActivities } from '../activities';
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
  worker: Worker;
  /** Resolves when the worker has stopped (after shutdown() or a fatal error). */
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

export async function startWorker(deps: WorkerDependencies): Promise<RunningWorker> {
  installTemporalRuntime(deps.logger);
  const connection = await NativeConnection.connect({ address: deps.temporalAddress });
  const finalization = new NotarizationThreads(deps.config.finalizationWork);
  const mail = createMailTransport(deps.config.smtpUrl);
  const worker = await Worker.create({
    connection,
    namespace: deps.config.temporalNamespace,
    taskQueue: deps.config.taskQueue,
    ...workflowCode(deps.workflowBundle),
    activities: createActivities({
      config: deps.config,
      logger: deps.logger,
      sequelize: deps.sequelize,
      temporal: new Client({ connection, namespace: deps.config.temporalNamespace }),
      finalization,
      mail,
      media: new JanusAdmin(mediaServerUrl(deps.config.media), deps.config.media.adminKey),
      objectStore: createObjectStore(deps.config.objectStore),
    }),
    // Bounded memory per worker: a session spends most of its life waiting for people or a timer, so
    // one evicted is rebuilt from its history when it next wakes rather than held in memory meanwhile.
    maxCachedWorkflows: deps.config.workerCachedWorkflows,
    // Activities get this long to finish on shutdown before they are cancelled.
    shutdownGraceTime: '10s',
    shutdownForceTime: '30s',
  });
  const done = worker
    .run()
    .finally(() => Promise.all([connection.close(), finalization.close(), mail?.close()]));
  return {
    worker,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
