import type { MediaIdentity } from '../../core/session/media';
import { signerOfKey } from '../../core/session/signing';

/** A playable track placed on a room's timeline. */
export interface PlacedTrack {
  file: string;
  kind: 'audio' | 'video';
  identity: MediaIdentity;
  /** Seconds from the room's opening to its first packet. */
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
export function peopleOf(tracks: readonly PlacedTrack[]): MediaIdentity[] {
  return [...new Set(tracks.map((t) => t.identity))].sort((a, b) => ORDER(a) - ORDER(b));
}

const seconds = (value: number) => Math.max(0, value).toFixed(3);

/**
 * ffmpeg's arguments for one room's composite: a grid of everyone's video (each tile labelled from
 * `labelFiles`, each track from when it began) over the room's whole time, and all their audio mixed,
 * as VP8 and Opus in WebM. Time before anyone's media is black and silent, so the file lasts exactly as
 * long as the room was open, and its segments line up with the act's clock.
 */
export function compositionArgs(opts: {
  tracks: readonly PlacedTrack[];
  durationSeconds: number;
  grid: { columns: number; rows: number };
  labelFiles: Map<MediaIdentity, string>;
  fontFile: string;
  output: string;
}): string[] {
  const { tracks, grid, output } = opts;
  const duration = seconds(opts.durationSeconds);
  const people = peopleOf(tracks);
  const width = grid.columns * TILE.width;
  const height = grid.rows * TILE.height;
  const inputs = tracks.flatMap((t) => ['-i', t.file]);
  const filters = [`color=c=0x1b1f24:s=${width}x${height}:r=15:d=${duration}[base0]`];
  let base = 'base0';
  tracks.forEach((track, i) => {
    if (track.kind !== 'video') return;
    const tile = people.indexOf(track.identity);
    const x = (tile % grid.columns) * TILE.width;
    const y = Math.floor(tile / grid.columns) * TILE.height;
    const label = opts.labelFiles.get(track.identity);
    const text = label
      ? `,drawtext=fontfile='${opts.fontFile}':textfile='${label}':x=12:y=h-th-12:fontsize=18:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=6`
      : '';
    filters.push(
      `[${i}:v]setpts=PTS-STARTPTS+${seconds(track.offsetSeconds)}/TB,` +
        `scale=${TILE.width}:${TILE.height}:force_original_aspect_ratio=decrease,` +
        `pad=${TILE.width}:${TILE.height}:(ow-iw)/2:(oh-ih)/2:color=black${text}[v${i}]`,
      `[${base}][v${i}]overlay=${x}:${y}:eof_action=pass[base${i + 1}]`,
    );
    base = `base${i + 1}`;
  });
  // Overlays leave an alpha plane that VP8 cannot carry.
  filters.push(`[${base}]format=yuv420p[vout]`);
  const audio = tracks.map((t, i) => ({ t, i })).filter(({ t }) => t.kind === 'audio');
  for (const { t, i } of audio) {
    const ms = Math.round(Math.max(0, t.offsetSeconds) * 1000);
    filters.push(`[${i}:a]aresample=48000,adelay=delays=${ms}:all=1[a${i}]`);
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
    ...inputs,
    '-filter_complex',
    filters.join(';'),
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    '-t',
    duration,
    '-c:v',
    'libvpx',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-b:v',
    '900k',
    '-c:a',
    'libopus',
    '-b:a',
    '64k',
    '-f',
    'webm',
    output,
  ];
}
