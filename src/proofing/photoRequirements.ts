import { imageDimensions } from '../documents/documentLimits';
import { PHOTO_MINIMUMS, type PhotoKind } from '../../core/session/photos';

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
