import type { Client } from '@temporalio/client';
import type { Transporter } from 'nodemailer';
import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config';
import type { Logger } from '../src/logger';
import type { NotarizationThreads } from '../src/notarizedPdf/notarizationThreads';

export interface ActivityDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  /** For what the worker asks Temporal itself (the workflows an operator terminated). */
  temporal: Client;
  finalization: NotarizationThreads;
  /** Without SMTP_URL, none: e-mails stay `pending` in the outbox. */
  mail: Transporter | undefined;
}
