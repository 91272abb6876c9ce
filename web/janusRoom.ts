import Janus, { type JanusMessage, type Jsep, type PluginHandle } from 'janus-gateway';
import type { RoomView } from './roomView';
import { segmentOfRoom } from '../core/session/media';

/** The service's answer to "let me in": contract of POST /sign/{token}/media and /me/sessions/{id}/media. */
export interface RoomPass {
  media_token: string;
  identity: string;
  display_name: string;
  segment: number;
  signaling_path: string;
  ice_servers: RTCIceServer[];
  ice_transport_policy: RTCIceTransportPolicy;
}

const PLUGIN = 'janus.plugin.videoroom';

const labelOf = (display: string | undefined) => {
  try {
    return (JSON.parse(display ?? '') as { name?: string }).name || 'Participant';
  } catch {
    return 'Participant';
  }
};

let initialised: Promise<void> | undefined;
/** janus.js once per page, with the adapter that evens out the browsers' WebRTC. */
export function initJanus(adapter: unknown): Promise<void> {
  initialised ??= new Promise((resolve) =>
    Janus.init({ debug: false, dependencies: Janus.useDefaultDependencies({ adapter }), callback: resolve }),
  );
  return initialised;
}

/**
 * One connection to the room: this page publishes its camera and microphone, and subscribes to everyone
 * else's streams as they publish. `onLost` fires once when the connection or the room is gone.
 */
export interface RoomStats {
  /** The segment whose room this connection is in (0 before the first): a restart's next room is the next. */
  segment: number;
  feeds: number;
  framesDecoded: number;
  audioPacketsReceived: number;
  candidateTypes: string[];
}

interface StatsEntry {
  id: string;
  type: string;
  kind?: string;
  framesDecoded?: number;
  packetsReceived?: number;
  nominated?: boolean;
  state?: string;
  localCandidateId?: string;
  candidateType?: string;
}

export class JanusRoom {
  private janus?: Janus;
  private publisher?: PluginHandle;
  private readonly feeds = new Map<string, PluginHandle>();
  /** Feeds whose subscription is being attached: unsubscribing one of them detaches it once attached. */
  private readonly attaching = new Set<string>();
  private lost = false;
  private connected = false;
  /**
   * The segment of the room joined: the service puts a join in the room open then, which is the next one
   * when the pass was given just before it noticed a media server's restart.
   */
  private segment: number;
  private failConnect?: (e: Error) => void;

  constructor(
    private readonly pass: RoomPass,
    private readonly local: MediaStream,
    private readonly view: RoomView,
    private readonly onLost: (why: string) => void,
  ) {
    this.segment = pass.segment;
  }

  /** Resolves once in the room; a loss before that rejects it (after it, `onLost` is told). */
  connect(): Promise<void> {
    return new Promise((inRoom, reject) => {
      this.failConnect = reject;
      const resolve = () => {
        this.connected = true;
        inRoom();
      };
      this.janus = new Janus({
        server: location.origin + this.pass.signaling_path,
        token: this.pass.media_token,
        iceServers: this.pass.ice_servers,
        iceTransportPolicy: this.pass.ice_transport_policy,
        // A connection given up before the server answered must not come alive later as a ghost publisher.
        success: () => (this.lost ? this.close() : this.attachPublisher(resolve, reject)),
        error: (e) => (this.publisher ? this.lose(String(e)) : reject(new Error(String(e)))),
        destroyed: () => this.lose('the connection closed'),
      });
    });
  }

  close(): void {
    this.lost = true;
    this.janus?.destroy({ cleanupHandles: true, notifyDestroyed: false });
  }

  /**
   * What is arriving from the others (video frames decoded, audio packets received, over all feeds), and
   * how this page reaches the media server: the type of each connection's local candidate (`relay` via TURN).
   */
  async stats(): Promise<RoomStats> {
    let framesDecoded = 0;
    let audioPacketsReceived = 0;
    const candidateTypes = new Set<string>();
    for (const handle of [this.publisher, ...this.feeds.values()]) {
      const report = await handle?.webrtcStuff.pc?.getStats();
      const byId = new Map<string, StatsEntry>();
      report?.forEach((s: StatsEntry) => byId.set(s.id, s));
      for (const s of byId.values()) {
        if (s.type === 'inbound-rtp' && s.kind === 'video') framesDecoded += s.framesDecoded ?? 0;
        if (s.type === 'inbound-rtp' && s.kind === 'audio') audioPacketsReceived += s.packetsReceived ?? 0;
        if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded')
          candidateTypes.add(byId.get(s.localCandidateId ?? '')?.candidateType ?? 'unknown');
      }
    }
    return {
      segment: this.segment,
      feeds: this.feeds.size,
      framesDecoded,
      audioPacketsReceived,
      candidateTypes: [...candidateTypes].sort(),
    };
  }

  private lose(why: string): void {
    if (this.lost) return;
    this.lost = true;
    if (this.connected) this.onLost(why);
    else this.failConnect?.(new Error(why));
  }

  private attachPublisher(resolve: () => void, reject: (e: Error) => void): void {
    this.janus!.attach({
      plugin: PLUGIN,
      success: (handle) => {
        if (this.lost) return this.close();
        this.publisher = handle;
        // Refused (between a restart's two rooms none is open), the attempt fails now, not at its deadline.
        handle.send({
          message: { request: 'join', ptype: 'publisher' },
          error: (e) => reject(new Error(String(e))),
        });
      },
      error: (e) => reject(new Error(String(e))),
      onmessage: (message, jsep) => this.onPublisherMessage(message, jsep, resolve, reject),
      webrtcState: (on) => {
        if (!on) this.lose('the media connection dropped');
      },
      // A media server gone mid-call fails ICE's consent checks long before the peer connection closes.
      iceState: (state) => {
        if (state === 'failed') this.lose('the media connection failed');
      },
    });
  }

  private onPublisherMessage(
    message: JanusMessage,
    jsep: Jsep | undefined,
    resolve: () => void,
    reject: (e: Error) => void,
  ): void {
    if (jsep) this.publisher!.handleRemoteJsep({ jsep });
    if (message.error) {
      if (message.error_code === 426 || message.videoroom === 'destroyed') this.lose('the room closed');
      else reject(new Error(message.error));
      return;
    }
    if (message.videoroom === 'joined') {
      this.segment = segmentOfRoom(message.room) ?? this.segment;
      this.publish(reject);
    }
    if (message.configured === 'ok') resolve();
    if (message.videoroom === 'destroyed') this.lose('the room closed');
    // One's own earlier connection (a console closed and opened again) is still publishing until the media
    // server notices: it is never shown as someone else. A publisher announced later is its person's newest
    // connection; the list given on joining has no order.
    const newest = message.videoroom !== 'joined';
    for (const publisher of message.publishers ?? [])
      if (!publisher.id.startsWith(`${this.pass.identity}~`))
        this.subscribe(publisher.id, labelOf(publisher.display), newest);
    const gone = message.unpublished ?? message.leaving;
    if (typeof gone === 'string') this.unsubscribe(gone);
  }

  private publish(reject: (e: Error) => void): void {
    const [audio] = this.local.getAudioTracks();
    const [video] = this.local.getVideoTracks();
    this.publisher!.createOffer({
      // The page's own tracks outlive this connection: a reconnection publishes them again.
      tracks: [
        { type: 'audio', capture: audio, recv: false, dontStop: true },
        { type: 'video', capture: video, recv: false, dontStop: true },
      ],
      success: (jsep) =>
        this.publisher!.send({
          message: { request: 'publish', audio: true, video: true },
          jsep,
          error: (e) => reject(new Error(String(e))),
        }),
      error: (e) => reject(new Error(String(e))),
    });
  }

  private subscribe(feed: string, label: string, newest: boolean): void {
    if (this.feeds.has(feed) || this.attaching.has(feed)) return;
    if (newest) this.replaceOthers(feed);
    this.attaching.add(feed);
    const stream = new MediaStream();
    this.janus!.attach({
      plugin: PLUGIN,
      success: (handle) => {
        if (!this.attaching.delete(feed)) return void handle.detach();
        this.feeds.set(feed, handle);
        handle.send({ message: { request: 'join', ptype: 'subscriber', streams: [{ feed }] } });
      },
      error: () => this.unsubscribe(feed),
      onmessage: (_message, jsep) => {
        const handle = this.feeds.get(feed);
        if (!jsep || !handle) return;
        handle.createAnswer({
          jsep,
          tracks: [{ type: 'data' }],
          success: (answer) => handle.send({ message: { request: 'start' }, jsep: answer }),
          error: () => this.unsubscribe(feed),
        });
      },
      onremotetrack: (track, _mid, on) => {
        if (on) stream.addTrack(track);
        else stream.removeTrack(track);
        // A feed that left is detached, and its tracks end after it: that must not draw its tile again.
        if (!this.feeds.has(feed)) return;
        const video = this.view.tile(feed, label);
        if (video.srcObject !== stream) video.srcObject = stream;
        if (on && track.kind === 'video' && !track.muted) this.replaceOthers(feed);
      },
    });
  }

  /**
   * A person's newest connection, or the one whose video flows, replaces the others they have: a reload or
   * a console opened again leaves the old one listed by the media server, frozen, until it times out, and
   * a page joining then is told of both at once.
   */
  private replaceOthers(feed: string): void {
    const person = feed.split('~')[0];
    for (const other of [...this.feeds.keys(), ...this.attaching])
      if (other !== feed && other.split('~')[0] === person) this.unsubscribe(other);
  }

  private unsubscribe(feed: string): void {
    this.attaching.delete(feed);
    this.feeds.get(feed)?.detach();
    this.feeds.delete(feed);
    this.view.removeTile(feed);
  }
}
