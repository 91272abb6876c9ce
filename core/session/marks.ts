import type { SignatureKind } from './signing';

/**
 * What an adopted mark may be, for the page that draws it, the API that takes it and the renderer: the
 * canvas a drawn mark is drawn on (the size every mark is rendered at), and the limits of its input.
 */
export const MARK_SIZE: Record<SignatureKind, { width: number; height: number }> = {
  signature: { width: 600, height: 150 },
  initials: { width: 300, height: 150 },
};
export const MAX_STROKES = 64;
export const MAX_POINTS = 4000;
export const MAX_MARK_TEXT = 64;
