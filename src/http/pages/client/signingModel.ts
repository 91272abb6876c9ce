/** The signing view as the service answers it (GET …/signing), and what the page parts share. */
export interface Place {
  id: string;
  kind: 'signature' | 'initials';
  participant: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  applied_at: string | null;
}
export interface Person {
  participant: string;
  index: number;
  name: string;
  consented_at: string | null;
  adopted: string[];
  places_done: number;
  places_total: number;
  signed_at?: string | null;
  focus?: { document_id: string; place_id: string } | null;
  notary_identifies: boolean;
  identified_at: string | null;
  room_state: string | null;
  on_camera?: boolean;
}
export interface View {
  documents: Array<{
    notary_can_edit?: boolean;
    id: string;
    name: string;
    pages: Array<{ width: number; height: number }>;
    places: Place[];
    places_done: number;
    places_total: number;
  }>;
  participants: Person[];
  signing_as: string[];
  /** Why signing waits now (who is not on camera); null when it may go on. */
  paused: string | null;
  notary_on_camera?: boolean;
}

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
