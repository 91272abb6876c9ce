import type { Client } from '@temporalio/client';
import type { Transporter } from 'nodemailer';
import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config';
import type { Logger } from '../src/logger';
import type { NotarizationThreads } from '../src/notarizedPdf/notarizationThreads';
import type { JanusAdmin } from '../src/media/janusAdmin';
import type { ObjectStore } from '../src/objectStore/objectStore';

export interface ActivityDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  /** For what the worker asks Temporal itself (the workflows an operator terminated). */
  temporal: Client;
  finalization: NotarizationThreads;
  /** Without SMTP_URL, none: e-mails stay `pending` in the outbox. */
  mail: Transporter | undefined;
  /** The media server's videoroom, for the live act's rooms. */
  media: JanusAdmin;
  /** Where recordings are kept. */
  objectStore: ObjectStore;
}
