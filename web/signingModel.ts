/** The signing view as the service answers it (GET …/signing): declared once, in core/wire. */
import type { ParticipantProgress, PlaceView, SigningView } from '../core/wire/signingView';

export type Place = PlaceView;
export type Person = ParticipantProgress;
export type View = SigningView;

/** What every part of the signing page reaches: the service, the view, and the status line. */
export interface SigningContext {
  base: string;
  status: HTMLElement;
  view(): View;
  call(path: string, body?: object): Promise<boolean>;
  refresh(): Promise<void>;
  me(key: string): Person;
  withIndex(person: Person, body: object): object;
}
