import adapter from 'webrtc-adapter';
import { initJanus, JanusRoom, type RoomPass, type RoomStats } from './janusRoom';
import { RoomView } from './roomView';

/** How a page lets its participant into the live room. */
export interface RoomOptions {
  root: HTMLElement;
  /** Asks the service for a media token (POST …/media), answered as fetch answers. */
  requestPass: () => Promise<Response>;
  /** How this participant's own tile is labelled. */
  selfLabel: string;
  /** What the room's status line says once this participant is in. */
  liveMessage: string;
  /** The room is over for this participant (the act ended, or they may no longer be in it). */
  onEnded?: (message: string) => void;
  /** Each change of the room's state, and of the camera and microphone switches (`camera_off`, `muted`). */
  onState?: (state: string) => void;
  /**
   * Wait with the camera on, unconnected, until `join()`: the waiting room's camera check, so the
   * room connects the moment the notary starts. What the status line says meanwhile.
   */
  lobbyMessage?: string;
}

export interface LiveRoomHandle {
  /** Connects a room entered with a lobby (at once when it has none). */
  join(): void;
  stats(): Promise<RoomStats>;
  state(): string;
  leave(): void;
}

const BLOCKED: Record<string, string> = {
  NotAllowedError:
    'Your camera and microphone are blocked for this page. A notarization needs the notary to see and hear you: ' +
    'allow both in your browser (the camera icon in the address bar, or the site settings), then press Try again.',
  NotFoundError:
    'No camera or microphone was found. Connect a camera and a microphone (or use a phone or laptop that has both), ' +
    'then press Try again.',
  NotReadableError:
    'Your camera or microphone is in use by another application. Close it, then press Try again.',
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection that is not in the room by then is given up and tried again (a media server mid-restart). */
const CONNECT_DEADLINE_MS = 10_000;
const withDeadline = <T>(work: Promise<T>, ms: number) =>
  Promise.race([work, pause(ms).then(() => Promise.reject(new Error('The room did not answer in time')))]);

/** The camera and microphone, asked for with the reason on screen first; undefined when refused. */
async function ownMedia(view: RoomView): Promise<MediaStream | undefined> {
  view.setState(
    'checking',
    'Your browser will ask to use your camera and microphone: the notary must see and hear you, and the ' +
      'session is recorded as the law requires.',
  );
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: 640, height: 480 } });
  } catch (err) {
    const name = (err as DOMException).name;
    view.setState('blocked', BLOCKED[name] ?? BLOCKED.NotReadableError);
    return undefined;
  }
}

/** Mute and camera buttons: they switch this participant's own tracks off and on. */
function wireControls(
  view: RoomView,
  local: () => MediaStream | undefined,
  onState?: (state: string) => void,
) {
  const toggle = (
    button: HTMLButtonElement,
    tracks: () => MediaStreamTrack[],
    labels: [string, string],
    off: string,
  ) =>
    button.addEventListener('click', () => {
      const [track] = tracks();
      if (!track) return;
      track.enabled = !track.enabled;
      view.toggled(button, !track.enabled, labels);
      onState?.(track.enabled ? 'live' : off);
    });
  toggle(view.mute, () => local()?.getAudioTracks() ?? [], ['Mute microphone', 'Unmute microphone'], 'muted');
  toggle(
    view.camera,
    () => local()?.getVideoTracks() ?? [],
    ['Turn camera off', 'Turn camera on'],
    'camera_off',
  );
}

/**
 * Enters the live room and stays in it: asks for the camera and microphone (no entry without both),
 * gets a media token, connects through the signaling proxy, and reconnects by itself whenever the
 * connection or the room is lost (a media server restart opens a new room), until the act ends.
 */
export function enterRoom(options: RoomOptions): LiveRoomHandle {
  const view = new RoomView(options.root, options.onState);
  let local: MediaStream | undefined;
  let room: JanusRoom | undefined;
  let ended = false;
  let join!: () => void;
  const joined = new Promise<void>((resolve) => (join = resolve));
  if (!options.lobbyMessage) join();

  const end = (message: string) => {
    ended = true;
    room?.close();
    view.clearRemote(); // the others' last frames would stand as if they were still there
    for (const track of local?.getTracks() ?? []) track.stop();
    view.setState('ended', message);
    options.onEnded?.(message);
  };

  const connect = async (again: boolean): Promise<void> => {
    // The room opens a moment after the start: ask again briskly at first, then as the service says.
    for (let tries = 1; !ended; tries++) {
      view.setState(
        again ? 'reconnecting' : 'connecting',
        again ? 'Reconnecting to the room…' : 'Connecting to the room…',
      );
      const answer = await options.requestPass().catch(() => undefined);
      if (answer && [404, 409, 410].includes(answer.status)) {
        const body = (await answer.json().catch(() => ({}))) as { response_message?: string };
        return end(body.response_message ?? 'The live room is closed.');
      }
      if (!answer?.ok) {
        await pause(tries <= 8 ? 250 : 1000 * Math.min(5, Number(answer?.headers.get('retry-after')) || 1));
        continue;
      }
      const pass = (await answer.json()) as RoomPass;
      const attempt = new JanusRoom(pass, local!, view, () => {
        if (ended || room !== attempt) return;
        attempt.close();
        view.clearRemote();
        void connectOnce(true);
      });
      room = attempt;
      try {
        await withDeadline(attempt.connect(), CONNECT_DEADLINE_MS);
        view.setState('live', options.liveMessage);
        return;
      } catch {
        attempt.close();
        again = true;
        await pause(1000);
      }
    }
  };

  // One connection loop at a time: two would each end in the room, one of them a ghost publisher.
  let connecting: Promise<void> | undefined;
  const connectOnce = (again: boolean) =>
    (connecting ??= connect(again).finally(() => (connecting = undefined)));

  const start = async () => {
    await initJanus(adapter);
    local = await ownMedia(view);
    if (!local) return;
    view.tile('self', `${options.selfLabel} (you)`, true).srcObject = local;
    if (options.lobbyMessage) view.setState('ready', options.lobbyMessage);
    await joined;
    if (!room && !ended) await connectOnce(false);
  };

  view.retry.addEventListener('click', () => void start());
  wireControls(view, () => local, options.onState);
  void start();

  return {
    join,
    stats: async () => (room ? room.stats() : NOTHING_YET),
    state: () => options.root.querySelector<HTMLElement>('.room-status')?.dataset.state ?? 'checking',
    leave: () => end('You left the room.'),
  };
}

const NOTHING_YET: RoomStats = {
  segment: 0,
  feeds: 0,
  framesDecoded: 0,
  audioPacketsReceived: 0,
  candidateTypes: [],
};

declare global {
  interface Window {
    NotarizationRoom: { enter: typeof enterRoom };
    /** The room this page is in, for its own diagnostics. */
    notarizationRoom?: LiveRoomHandle;
  }
}

window.NotarizationRoom = {
  enter: (options) => (window.notarizationRoom = enterRoom(options)),
};
