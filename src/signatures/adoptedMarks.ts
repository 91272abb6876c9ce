import { Resvg } from '@resvg/resvg-js';
import type { SignatureKind } from '../../core/session/signing';
import { MARK_SIZE } from '../../core/session/marks';

/** The handwriting styles a typed signature is rendered in: Google Fonts under the OFL, from npm. */
export const SIGNATURE_STYLES = {
  'dancing-script': {
    family: 'Dancing Script',
    file: '@expo-google-fonts/dancing-script/400Regular/DancingScript_400Regular.ttf',
  },
  'great-vibes': {
    family: 'Great Vibes',
    file: '@expo-google-fonts/great-vibes/400Regular/GreatVibes_400Regular.ttf',
  },
  caveat: { family: 'Caveat', file: '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf' },
} as const;
export type SignatureStyle = keyof typeof SIGNATURE_STYLES;

const FONT_FILES = Object.values(SIGNATURE_STYLES).map((s) => require.resolve(s.file));

export type MarkInput =
  { method: 'typed'; style: SignatureStyle; text: string } | { method: 'drawn'; strokes: number[][][] };

const INK = '#1a2a6c';
const xml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function svgOf(kind: SignatureKind, mark: MarkInput): string {
  const { width, height } = MARK_SIZE[kind];
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`;
  if (mark.method === 'typed') {
    const { family } = SIGNATURE_STYLES[mark.style];
    // As large as fits: about half an em per character in these faces, at most 70% of the height.
    const size = Math.min(height * 0.7, (width * 0.92) / Math.max(1, mark.text.length * 0.5));
    return `${open}<text x="${width / 2}" y="${height * 0.62}" font-family="${family}" font-size="${size.toFixed(1)}" fill="${INK}" text-anchor="middle">${xml(mark.text)}</text></svg>`;
  }
  const paths = mark.strokes
    .map((stroke) => stroke.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`).join(''))
    .map((d) => `<path d="${d}"/>`)
    .join('');
  return `${open}<g fill="none" stroke="${INK}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round">${paths}</g></svg>`;
}

/** A mark as the PNG stamped at its places: rendered here, so the page's preview and the PDF agree. */
export function renderMark(kind: SignatureKind, mark: MarkInput): Buffer {
  const png = new Resvg(svgOf(kind, mark), {
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'Dancing Script' },
    fitTo: { mode: 'original' },
    background: 'rgba(0,0,0,0)',
  })
    .render()
    .asPng();
  return Buffer.from(png);
}
