import { rgb, type PDFDocument, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { type PlacedAnnotation, type SignerKey, type SigningPlace } from '../../core/session/signing';
import { boxOfPlace, type PlaceBox, type SignaturePages } from '../../core/session/placeGeometry';

export const INK = rgb(0.1, 0.15, 0.45);
export const TEST_RED = rgb(0.8, 0.05, 0.05);
/** Stamped at a place nobody signed in a test-mode session (its documents say they are no notarial act). */
export const TEST_SIGNATURE = 'TEST SIGNATURE';

type Box = { x: number; y: number; width: number; height: number };

export interface Ink {
  regular: PDFFont;
  bold: PDFFont;
  seal: PDFImage;
  /** The notary's adopted signature; none only in a test-mode session whose notary adopted none. */
  notarySignature: PDFImage | null;
}

/** What is stamped on one document: its places, whose marks, and who signs the boxes it names. */
export interface Stamping {
  annotations: PlacedAnnotation[];
  places: SigningPlace[];
  signaturePages: SignaturePages;
  marks: Array<{ place: string; participant: SignerKey; png: Uint8Array }>;
  names: { signers: string[]; witnesses: string[]; notary: string };
  date: string;
  test: boolean;
}

/** Text fitted into a box: as large as the box allows, at most `max` points. */
export function drawFitted(page: PDFPage, text: string, font: PDFFont, box: Box, max = 14, color = INK) {
  const size = Math.max(
    4,
    Math.min(max, box.height * 0.7, (box.width / Math.max(font.widthOfTextAtSize(text, 10), 1)) * 10),
  );
  page.drawText(text, { x: box.x, y: box.y + (box.height - size) / 2, size, font, color });
}

/** An image as large as fits in the box, centred, its proportions kept. */
export function drawImageIn(page: PDFPage, image: PDFImage, box: Box) {
  const scale = Math.min(box.width / image.width, box.height / image.height);
  const [width, height] = [image.width * scale, image.height * scale];
  page.drawImage(image, {
    x: box.x + (box.width - width) / 2,
    y: box.y + (box.height - height) / 2,
    width,
    height,
  });
}

/** The notary's signature in a box: their adopted mark, or in a test-mode session without one, the stamp. */
export function drawNotarySignature(page: PDFPage, box: Box, ink: Ink) {
  if (ink.notarySignature) drawImageIn(page, ink.notarySignature, box);
  else {
    page.drawRectangle({ ...box, borderColor: TEST_RED, borderWidth: 1 });
    drawFitted(page, TEST_SIGNATURE, ink.bold, box, 12, TEST_RED);
  }
}

/** Annotations measure y from the top of the page; PDF measures from the bottom. */
const pdfBox = (page: PDFPage, a: PlaceBox): Box => ({
  x: a.x,
  y: page.getHeight() - a.y - a.height,
  width: a.width,
  height: a.height,
});

/**
 * Each participant's adopted mark, exactly in the box of each place they applied it at; in a test-mode
 * session, a visible test stamp at a place left unsigned. A live act completes only once every place is.
 */
export async function stampMarks(pdf: PDFDocument, stamping: Stamping, ink: Ink) {
  const pages = pdf.getPages();
  for (const place of stamping.places) {
    const box = boxOfPlace(place, stamping.annotations, stamping.signaturePages);
    const page = box && pages[box.pageNum - 1];
    if (!box || !page) continue;
    const at = pdfBox(page, box);
    const mark = stamping.marks.find((m) => m.place === place.place);
    if (mark) drawImageIn(page, await pdf.embedPng(mark.png), at);
    else if (stamping.test) {
      page.drawRectangle({ ...at, borderColor: TEST_RED, borderWidth: 1 });
      drawFitted(page, TEST_SIGNATURE, ink.bold, at, 12, TEST_RED);
    }
  }
}

/** Fills the named fields, and the notary's seal and signature boxes of the signature pages. */
export function stampFields(pdf: PDFDocument, stamping: Stamping, ink: Ink) {
  const pages = pdf.getPages();
  const { names } = stamping;
  for (const a of stamping.annotations) {
    const page = pages[a.pageNum - 1];
    if (!page) continue;
    const box = pdfBox(page, a);
    const person =
      a.role === 'signer'
        ? names.signers[a.participant_index]
        : a.role === 'witness'
          ? names.witnesses[a.participant_index]
          : names.notary;
    if (a.fieldType === 'notary_seal') drawImageIn(page, ink.seal, box);
    else if (a.fieldType === 'notary_signature') drawNotarySignature(page, box, ink);
    else if (person && a.fieldType === 'full_name') drawFitted(page, person, ink.regular, box);
    else if (a.fieldType === 'date_signed') drawFitted(page, stamping.date, ink.regular, box);
  }
  for (const slot of stamping.signaturePages.slots) {
    const page = pages[slot.box.pageNum - 1];
    if (slot.holder === 'notary-seal') drawImageIn(page, ink.seal, pdfBox(page, slot.box));
    if (slot.holder === 'notary-signature') drawNotarySignature(page, pdfBox(page, slot.box), ink);
  }
}
