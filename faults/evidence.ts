import type { Sequelize } from 'sequelize';
import { CallLog, type Step } from './driver';
import { SignatureCheckingReceiver } from './receiver';

/** What the fault test gathers while it runs, for its checks. */
export interface Options {
  sessions: number;
  concurrency: number;
  receiverDown: number;
  databaseDown: number;
  spacing: number;
  keep: boolean;
}

export interface FaultWindow {
  name: string;
  from: number;
  to: number;
}

export interface DeliveryRow {
  event_id: string;
  event: string;
  session_id: string;
  status: string;
  attempt_count: number;
}

export interface Evidence {
  sequelize: Sequelize;
  opts: Options;
  sessionIds: string[];
  sessionErrors: string[];
  callLog: CallLog;
  receiver: SignatureCheckingReceiver;
  deliveries: DeliveryRow[];
  faults: FaultWindow[];
  steps: Step[];
  unexpectedExits: { api: number; worker: number };
  reportFile: string;
}
