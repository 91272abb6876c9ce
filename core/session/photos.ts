/** The smallest photos an ID check can read: the page states them, and smaller ones never reach the provider. */
export const PHOTO_MINIMUMS = {
  id_front: { width: 300, height: 190, label: 'the front of the ID' },
  id_back: { width: 300, height: 190, label: 'the back of the ID' },
  selfie: { width: 200, height: 200, label: 'the photo of your face' },
} as const;

export type PhotoKind = keyof typeof PHOTO_MINIMUMS;

/** Why each given photo cannot be checked (not a JPEG or PNG, or too small); empty when all can. */
