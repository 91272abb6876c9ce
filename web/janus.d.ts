/** The parts of janus.js (npm janus-gateway) the live room uses; the package ships no types. */
declare module 'janus-gateway' {
  export interface JanusMessage {
    videoroom?: string;
    id?: string;
    room?: string;
    publishers?: Array<{ id: string; display?: string; streams?: unknown[] }>;
    unpublished?: string;
    leaving?: string;
    configured?: string;
    error?: string;
    error_code?: number;
    [key: string]: unknown;
  }
  export interface Jsep {
    type: string;
    sdp: string;
  }
  export interface PluginHandle {
    send(options: {
      message: Record<string, unknown>;
      jsep?: Jsep;
      success?: () => void;
      error?: (e: unknown) => void;
    }): void;
    createOffer(options: {
      tracks: unknown[];
      success: (jsep: Jsep) => void;
      error: (e: unknown) => void;
    }): void;
    createAnswer(options: {
      jsep: Jsep;
      tracks: unknown[];
      success: (jsep: Jsep) => void;
      error: (e: unknown) => void;
    }): void;
    handleRemoteJsep(options: { jsep: Jsep }): void;
    hangup(): void;
    detach(options?: { success?: () => void }): void;
    webrtcStuff: { pc?: RTCPeerConnection };
  }
  export interface AttachOptions {
    plugin: string;
    success: (handle: PluginHandle) => void;
    error: (e: unknown) => void;
    onmessage?: (message: JanusMessage, jsep?: Jsep) => void;
    onremotetrack?: (track: MediaStreamTrack, mid: string, on: boolean) => void;
    onlocaltrack?: (track: MediaStreamTrack, on: boolean) => void;
    iceState?: (state: string) => void;
    webrtcState?: (on: boolean) => void;
    oncleanup?: () => void;
  }
  export default class Janus {
    static init(options: { debug: boolean | string[]; dependencies: unknown; callback: () => void }): void;
    static useDefaultDependencies(deps: { adapter: unknown }): unknown;
    static isWebrtcSupported(): boolean;
    constructor(options: {
      server: string;
      token?: string;
      iceServers?: RTCIceServer[];
      iceTransportPolicy?: RTCIceTransportPolicy;
      success: () => void;
      error: (e: unknown) => void;
      destroyed?: () => void;
    });
    attach(options: AttachOptions): void;
    destroy(options?: { cleanupHandles?: boolean; notifyDestroyed?: boolean; unload?: boolean }): void;
  }
}
