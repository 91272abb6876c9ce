import type { MediaIdentity } from '../../core/session/media';
import { peopleOf } from './composition';

/** One stream the media server recorded, made playable and placed on the act's clock. */
export interface EvidenceTrack {
  file: string;
  kind: 'audio' | 'video';
  identity: MediaIdentity;
  segment: number;
  /** Seconds from the act's first room opening to this stream's first packet. */
  offsetSeconds: number;
}

/** The stream tags that say whose each stream is; the composer reads them back. */
export const STREAM_TAGS = { identity: 'IDENTITY', segment: 'SEGMENT' } as const;

/** Segment by segment, the notary first, then signers and witnesses; each person's video before audio. */
export function evidenceOrder(tracks: readonly EvidenceTrack[]): EvidenceTrack[] {
  const people = peopleOf(tracks);
  return [...tracks].sort(
    (a, b) =>
      a.segment - b.segment ||
      people.indexOf(a.identity) - people.indexOf(b.identity) ||
      (a.kind === b.kind ? a.offsetSeconds - b.offsetSeconds : a.kind === 'video' ? -1 : 1),
  );
}

/**
 * ffmpeg's arguments for the act's evidence: every recorded stream copied as it was received (VP8, Opus:
 * no re-encoding) into one WebM, each starting where it began on the act's clock, titled with who it is
 * (`labels`) and tagged with their identity and segment.
 */
export function evidenceMuxArgs(
  tracks: readonly EvidenceTrack[],
  labels: Map<MediaIdentity, string>,
  output: string,
): string[] {
  const ordered = evidenceOrder(tracks);
  const inputs = ordered.flatMap((t) => [
    '-itsoffset',
    Math.max(0, t.offsetSeconds).toFixed(3),
    '-i',
    t.file,
  ]);
  const maps = ordered.flatMap((_, i) => ['-map', `${i}:0`]);
  const tags = ordered.flatMap((t, i) => [
    `-metadata:s:${i}`,
    `title=${labels.get(t.identity) ?? t.identity} (${t.kind}, segment ${t.segment})`,
    `-metadata:s:${i}`,
    `${STREAM_TAGS.identity}=${t.identity}`,
    `-metadata:s:${i}`,
    `${STREAM_TAGS.segment}=${t.segment}`,
  ]);
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...inputs,
    ...maps,
    '-c',
    'copy',
    ...tags,
    '-f',
    'webm',
    output,
  ];
}

/** An act in which nobody's media arrived is its length of black and silence, so its file still says how long. */
export function emptyActArgs(durationSeconds: number, output: string): string[] {
  const d = Math.max(0.1, durationSeconds).toFixed(3);
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=black:s=320x240:r=1:d=${d}`,
    '-f',
    'lavfi',
    '-i',
    `anullsrc=r=48000:cl=mono:d=${d}`,
    '-c:v',
    'libvpx',
    '-c:a',
    'libopus',
    '-t',
    d,
    '-f',
    'webm',
    output,
  ];
}
