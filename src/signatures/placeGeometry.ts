import type { PlacedAnnotation, SigningPlace } from '../../core/session/signing';

/** A box on a page, in PDF points measured from the page's top-left corner (as annotations are). */
export interface PlaceBox {
  pageNum: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

const DEFAULT_BOX = { width: 200, height: 40, rightMargin: 40, bottomFirst: 170, step: 48 };

/**
 * Where a place is: its annotation's box, or for a default place a box on the last page, stacked by
 * signer above the notary's default signature (bottom right) and clear of the default seal (bottom left).
 */
export function boxOfPlace(
  place: Pick<SigningPlace, 'place' | 'participant'>,
  annotations: readonly PlacedAnnotation[],
  lastPage: { pageNum: number; width: number; height: number },
): PlaceBox {
  const annotation = annotations.find((a) => a.id === place.place);
  if (annotation) {
    const { pageNum, x, y, width, height } = annotation;
    return { pageNum, x, y, width, height };
  }
  const index = Number(place.participant.split('-')[1]);
  const { width, height, rightMargin, bottomFirst, step } = DEFAULT_BOX;
  return {
    pageNum: lastPage.pageNum,
    x: Math.max(0, lastPage.width - rightMargin - width),
    y: Math.max(0, lastPage.height - bottomFirst - index * step - height),
    width,
    height,
  };
}
