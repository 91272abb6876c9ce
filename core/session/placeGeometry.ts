/**
 * Where each place of a document is drawn. Places the integrator named are their annotations' boxes; a
 * signer named nowhere, and the notary's seal and signature when no annotation places them, get a box on
 * signature pages appended after the document's own pages, so nothing is ever stamped over its text.
 */
import { defaultPlaceId, signerOfKey, type PlacedAnnotation, type SigningPlace } from './signing';

/** A box on a page, in PDF points measured from the page's top-left corner (as annotations are). */
export interface PlaceBox {
  pageNum: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Who a box of the signature pages is for. */
export type SlotHolder = `signer-${number}` | 'notary-signature' | 'notary-seal';

export interface SignaturePageSlot {
  holder: SlotHolder;
  box: PlaceBox;
}

/** The signature pages of one document: how many, and every box on them (page numbers in the whole file). */
export interface SignaturePages {
  firstPage: number;
  count: number;
  slots: SignaturePageSlot[];
}

export const SIGNATURE_PAGE_SIZE = { width: 612, height: 792 } as const;
/** Room on a signature page: its heading above TOP, nothing below BOTTOM. */
export const SIGNATURE_PAGE_TOP = 140;
const BOTTOM = SIGNATURE_PAGE_SIZE.height - 60;
const COLUMNS = [60, 330];
const MARK = { width: 222, height: 52 };
/** A signer's row: the mark, the line under it, the name (up to five lines) and the role. */
const ROW_HEIGHT = 130;
const SEAL = 150;
const NOTARY_BLOCK_HEIGHT = SEAL + 20;

const indexOf = (key: string) => signerOfKey(key).index;

/** Which of the document's people its own annotations leave without a place. */
export function unplacedHolders(
  annotations: readonly PlacedAnnotation[],
  places: readonly Pick<SigningPlace, 'place' | 'participant'>[],
): SlotHolder[] {
  const signers = places
    .filter((p) => p.participant.startsWith('signer-') && p.place === defaultPlaceId(indexOf(p.participant)))
    .map((p) => p.participant as `signer-${number}`);
  const named = (fieldType: string) => annotations.some((a) => a.fieldType === fieldType);
  return [
    ...signers,
    ...(named('notary_signature') ? [] : (['notary-signature'] as const)),
    ...(named('notary_seal') ? [] : (['notary-seal'] as const)),
  ];
}

/** The signature pages after a document of `pageCount` pages: none when its annotations place everyone. */
export function signaturePagesOf(holders: readonly SlotHolder[], pageCount: number): SignaturePages {
  const slots: SignaturePageSlot[] = [];
  let page = pageCount + 1;
  let y = SIGNATURE_PAGE_TOP;
  const room = (height: number) => {
    if (y + height > BOTTOM) [page, y] = [page + 1, SIGNATURE_PAGE_TOP];
  };
  const signers = holders.filter((h) => h.startsWith('signer-'));
  signers.forEach((holder, i) => {
    if (i % 2 === 0) room(ROW_HEIGHT);
    slots.push({ holder, box: { pageNum: page, x: COLUMNS[i % 2], y, ...MARK } });
    if (i % 2 === 1 || i === signers.length - 1) y += ROW_HEIGHT;
  });
  const notary = holders.filter((h) => !h.startsWith('signer-'));
  if (notary.length) room(NOTARY_BLOCK_HEIGHT);
  for (const holder of notary) {
    const box =
      holder === 'notary-seal'
        ? { pageNum: page, x: COLUMNS[1], y, width: SEAL, height: SEAL }
        : { pageNum: page, x: COLUMNS[0], y, ...MARK };
    slots.push({ holder, box });
  }
  return { firstPage: pageCount + 1, count: slots.length ? page - pageCount : 0, slots };
}

/** Where a place is: its annotation's box, or its signer's box on the signature pages. */
export function boxOfPlace(
  place: Pick<SigningPlace, 'place' | 'participant'>,
  annotations: readonly PlacedAnnotation[],
  signaturePages: SignaturePages,
): PlaceBox | undefined {
  const annotation = annotations.find((a) => a.id === place.place);
  if (annotation) {
    const { pageNum, x, y, width, height } = annotation;
    return { pageNum, x, y, width, height };
  }
  return signaturePages.slots.find((s) => s.holder === place.participant)?.box;
}

/** A document's signature pages: for the people among `places` (its own) whom its annotations leave out. */
export const signaturePagesOfDocument = (
  annotations: readonly PlacedAnnotation[],
  places: readonly Pick<SigningPlace, 'place' | 'participant'>[],
  pageCount: number,
): SignaturePages => signaturePagesOf(unplacedHolders(annotations, places), pageCount);
