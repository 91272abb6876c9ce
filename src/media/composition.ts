import type { MediaIdentity } from '../../core/session/media';
import { signerOfKey } from '../../core/session/signing';

/** A stream of the evidence file placed on the act's clock: the composite's input. */
export interface PlacedStream {
  /** The stream's index in the evidence file. */
  index: number;
  kind: 'audio' | 'video';
  identity: MediaIdentity;
  /** Seconds from the act's start to its first frame. */
  offsetSeconds: number;
}

export const TILE = { width: 480, height: 360 };

/** Columns and rows of the grid that shows `people` tiles: as square as it gets. */
export function gridOf(people: number): { columns: number; rows: number } {
  const columns = Math.max(1, Math.ceil(Math.sqrt(people)));
  return { columns, rows: Math.max(1, Math.ceil(people / columns)) };
}

const ORDER = (identity: MediaIdentity) =>
  identity === 'notary'
    ? 0
    : (signerOfKey(identity).role === 'signer' ? 1 : 100) + signerOfKey(identity).index;

/** Everyone who appears in a room, the notary first, then signers and witnesses by index. */
export function peopleOf(tracks: readonly { identity: MediaIdentity }[]): MediaIdentity[] {
  return [...new Set(tracks.map((t) => t.identity))].sort((a, b) => ORDER(a) - ORDER(b));
}

/** VP8 at real-time speed on one thread (background work), and Opus: the composite's codecs. */
const ENCODING = [
  '-c:v',
  'libvpx',
  '-deadline',
  'realtime',
  '-cpu-used',
  '8',
  '-threads',
  '1',
  '-b:v',
  '900k',
  '-c:a',
  'libopus',
  '-b:a',
  '64k',
  '-f',
  'webm',
];

const seconds = (value: number) => Math.max(0, value).toFixed(3);

/**
 * ffmpeg's arguments for the act's composite, made from its evidence file (`input`): a grid of everyone's
 * video (a tile per person, labelled from `labelFiles`, each stream from where it began) over the act's
 * whole time, and all their audio mixed, as VP8 and Opus in WebM. Time before anyone's media, and between
 * segments, is black and silent, so the view runs on the act's clock. One thread: it is background work.
 */
export function compositionArgs(opts: {
  input: string;
  streams: readonly PlacedStream[];
  durationSeconds: number;
  labelFiles: Map<MediaIdentity, string>;
  fontFile: string;
  output: string;
}): string[] {
  const { streams, output } = opts;
  const duration = seconds(opts.durationSeconds);
  const people = peopleOf(streams);
  const grid = gridOf(people.length);
  const width = grid.columns * TILE.width;
  const height = grid.rows * TILE.height;
  const filters = [`color=c=0x1b1f24:s=${width}x${height}:r=15:d=${duration}[base0]`];
  let base = 'base0';
  streams.forEach((stream, i) => {
    if (stream.kind !== 'video') return;
    const tile = people.indexOf(stream.identity);
    const x = (tile % grid.columns) * TILE.width;
    const y = Math.floor(tile / grid.columns) * TILE.height;
    const label = opts.labelFiles.get(stream.identity);
    const text = label
      ? `,drawtext=fontfile='${opts.fontFile}':textfile='${label}':x=12:y=h-th-12:fontsize=18:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=6`
      : '';
    filters.push(
      `[0:${stream.index}]setpts=PTS-STARTPTS+${seconds(stream.offsetSeconds)}/TB,` +
        `scale=${TILE.width}:${TILE.height}:force_original_aspect_ratio=decrease,` +
        `pad=${TILE.width}:${TILE.height}:(ow-iw)/2:(oh-ih)/2:color=black${text}[v${i}]`,
      `[${base}][v${i}]overlay=${x}:${y}:eof_action=pass[base${i + 1}]`,
    );
    base = `base${i + 1}`;
  });
  // Overlays leave an alpha plane that VP8 cannot carry.
  filters.push(`[${base}]format=yuv420p[vout]`);
  const audio = streams.map((s, i) => ({ s, i })).filter(({ s }) => s.kind === 'audio');
  for (const { s, i } of audio) {
    const ms = Math.round(Math.max(0, s.offsetSeconds) * 1000);
    filters.push(`[0:${s.index}]asetpts=PTS-STARTPTS,aresample=48000,adelay=delays=${ms}:all=1[a${i}]`);
  }
  filters.push(
    audio.length
      ? `${audio.map(({ i }) => `[a${i}]`).join('')}amix=inputs=${audio.length}:duration=longest:normalize=0,apad=whole_dur=${duration}[aout]`
      : `anullsrc=r=48000:cl=mono,atrim=0:${duration}[aout]`,
  );
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    opts.input,
    '-filter_complex',
    filters.join(';'),
    '-filter_complex_threads',
    '1',
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    '-t',
    duration,
    ...ENCODING,
    output,
  ];
}
