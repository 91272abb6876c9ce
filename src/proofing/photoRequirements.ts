import { imageDimensions } from '../documents/documentLimits';

/** The smallest photos an ID check can read: the page states them, and smaller ones never reach the provider. */
export const PHOTO_MINIMUMS = {
  id_front: { width: 300, height: 190, label: 'the front of the ID' },
  id_back: { width: 300, height: 190, label: 'the back of the ID' },
  selfie: { width: 200, height: 200, label: 'the photo of your face' },
} as const;

export type PhotoKind = keyof typeof PHOTO_MINIMUMS;

/** Why each given photo cannot be checked (not a JPEG or PNG, or too small); empty when all can. */
export function photoShortfalls(images: Partial<Record<PhotoKind, Buffer>>): string[] {
  const reasons: string[] = [];
  for (const kind of Object.keys(PHOTO_MINIMUMS) as PhotoKind[]) {
    const image = images[kind];
    if (!image) continue;
    const min = PHOTO_MINIMUMS[kind];
    const size = imageDimensions(image);
    if (!size) reasons.push(`${min.label} must be a JPEG or PNG photo`);
    else if (size.width < min.width || size.height < min.height)
      reasons.push(
        `${min.label} is ${size.width}×${size.height} pixels; it must be at least ${min.width}×${min.height}`,
      );
  }
  return reasons;
}
