import { Resvg } from '@resvg/resvg-js';
import { stateName } from '../../core/usStates';

export interface SealInput {
  stateCode: string;
  notaryName: string;
  commissionNumber: string;
  commissionExpiresOn: string;
}

export interface RenderedSeal {
  svg: string;
  png: Buffer;
}

const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) =>
  require.resolve(`dejavu-fonts-ttf/ttf/${f}`),
);

const xml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/**
 * Seal layouts by state. Most states accept a round seal; some prescribe a rectangular stamp with a
 * border (e.g. Florida's and Louisiana's rubber-stamp seals). Both carry the same required elements.
 */
const RECTANGULAR_STATES = new Set(['FL', 'LA', 'MT', 'NC', 'ND', 'TX', 'WA']);

function roundSeal(state: string, s: SealInput): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">
  <rect width="400" height="400" fill="white"/>
  <circle cx="200" cy="200" r="190" fill="none" stroke="#1f3a93" stroke-width="8"/>
  <circle cx="200" cy="200" r="150" fill="none" stroke="#1f3a93" stroke-width="3"/>
  <defs><path id="top" d="M 40 200 A 160 160 0 0 1 360 200"/><path id="bottom" d="M 40 200 A 160 160 0 0 0 360 200"/></defs>
  <text font-family="DejaVu Sans" font-weight="bold" font-size="26" fill="#1f3a93" text-anchor="middle">
    <textPath href="#top" startOffset="50%">NOTARY PUBLIC</textPath></text>
  <text font-family="DejaVu Sans" font-weight="bold" font-size="24" fill="#1f3a93" text-anchor="middle" dy="22">
    <textPath href="#bottom" startOffset="50%">STATE OF ${xml(state.toUpperCase())}</textPath></text>
  <text x="200" y="185" font-family="DejaVu Sans" font-weight="bold" font-size="22" fill="#1f3a93" text-anchor="middle">${xml(s.notaryName)}</text>
  <text x="200" y="220" font-family="DejaVu Sans" font-size="16" fill="#1f3a93" text-anchor="middle">Comm. No. ${xml(s.commissionNumber)}</text>
  <text x="200" y="245" font-family="DejaVu Sans" font-size="16" fill="#1f3a93" text-anchor="middle">Expires ${xml(s.commissionExpiresOn)}</text>
</svg>`;
}

function rectangularSeal(state: string, s: SealInput): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="500" height="220" viewBox="0 0 500 220">
  <rect width="500" height="220" fill="white"/>
  <rect x="6" y="6" width="488" height="208" fill="none" stroke="#1f3a93" stroke-width="6"/>
  <text x="250" y="50" font-family="DejaVu Sans" font-weight="bold" font-size="24" fill="#1f3a93" text-anchor="middle">${xml(s.notaryName)}</text>
  <text x="250" y="90" font-family="DejaVu Sans" font-weight="bold" font-size="20" fill="#1f3a93" text-anchor="middle">NOTARY PUBLIC, STATE OF ${xml(state.toUpperCase())}</text>
  <text x="250" y="135" font-family="DejaVu Sans" font-size="18" fill="#1f3a93" text-anchor="middle">Commission No. ${xml(s.commissionNumber)}</text>
  <text x="250" y="170" font-family="DejaVu Sans" font-size="18" fill="#1f3a93" text-anchor="middle">My Commission Expires ${xml(s.commissionExpiresOn)}</text>
</svg>`;
}

/** The notary's seal from their state's template, as SVG and as PNG rendered with bundled fonts. */
export function renderSeal(input: SealInput): RenderedSeal {
  const state = stateName(input.stateCode) ?? input.stateCode;
  const svg = RECTANGULAR_STATES.has(input.stateCode)
    ? rectangularSeal(state, input)
    : roundSeal(state, input);
  const png = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'DejaVu Sans' },
    fitTo: { mode: 'original' },
  })
    .render()
    .asPng();
  return { svg, png: Buffer.from(png) };
}
