import type { View } from '../signingModel';
import type { WorkList, WorkSession } from './model';

/** What every part of the console reaches: the service, the status line, and the parts beside the list. */
export interface ConsoleContext {
  api: string;
  token(): string;
  call(method: 'GET' | 'POST', path: string, body?: object): Promise<Response>;
  say(text: string, state: 'done' | 'refused' | 'signed-out'): void;
  refresh(): Promise<void>;
  /** The list redraws every few seconds: not while the notary fills something in. */
  hold(): void;
  release(): void;
  holdWhileFocused(form: HTMLElement): void;
  /** An action's answer, shown on the session's own card (it survives redraws). */
  noteOn(sessionId: string, text: string, state: 'done' | 'refused'): void;
  noteOf(sessionId: string): { text: string; state: string } | undefined;
  enterRoom(s: WorkSession, title: string, lobby?: boolean): { join(): void; leave(): void } | undefined;
  leaveRoom(): void;
  roomOf(): string | null;
  showDocuments(sessionId: string | null): void;
  documentsShown(): string | null;
  signingOf(sessionId: string): View | undefined;
  work(): WorkList | undefined;
  /** A modal dialog with the page's one <dialog>: resolves with the chosen action's value. */
  confirm(options: ConfirmOptions): Promise<string | null>;
}

export interface ConfirmOptions {
  title: string;
  body: HTMLElement[];
  /** The action that goes ahead, and the one that does not (focused first). */
  proceed: string;
  keep: string;
  /** A required reason, asked in a text area. */
  reason?: { label: string; max: number };
}
