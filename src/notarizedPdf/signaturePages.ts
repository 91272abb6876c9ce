import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import {
  SIGNATURE_PAGE_SIZE,
  SIGNATURE_PAGE_TOP,
  type SignaturePageSlot,
  type SignaturePages,
} from '../../core/session/placeGeometry';
import { signerOfKey } from '../../core/session/signing';
import { FONTS } from './fonts';

/** The words of the signature pages: whose document, and whose name goes under each box. */
export interface SignaturePageLabels {
  documentName: string;
  signers: readonly string[];
  /** The notary's name and commission, once the session has its notary. */
  notary: { name: string; commissionNumber: string } | null;
}

const GREY = rgb(0.35, 0.35, 0.35);

type Fonts = { regular: PDFFont; bold: PDFFont };

function fitted(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A word too long for one line, in pieces that fit. */
function pieces(word: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  for (const char of word) {
    const last = out.length ? out[out.length - 1] + char : char;
    if (out.length && font.widthOfTextAtSize(last, size) <= width) out[out.length - 1] = last;
    else out.push(char);
  }
  return out;
}

/** A name in lines no wider than the box, broken between words; past the last line it is cut with "…". */
function wrapped(text: string, font: PDFFont, size: number, width: number, most: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).flatMap((w) => pieces(w, font, size, width))) {
    const last = lines.length ? `${lines[lines.length - 1]} ${word}` : word;
    if (lines.length && font.widthOfTextAtSize(last, size) <= width) lines[lines.length - 1] = last;
    else lines.push(word);
  }
  const kept = lines.slice(0, most);
  if (lines.length > most) kept[most - 1] = `${kept[most - 1]} ${lines.slice(most).join(' ')}`;
  return kept.map((line) => fitted(line, font, size, width));
}

/** Top-left coordinates (as the layout's) to PDF's bottom-left. */
const fromTop = (page: PDFPage, y: number) => page.getHeight() - y;

/** Under a box: its line, the name (up to five lines: every name the API accepts fits) and the role. */
function drawCaption(page: PDFPage, slot: SignaturePageSlot, name: string, role: string, fonts: Fonts) {
  const { x, y, width, height } = slot.box;
  const base = y + height + 2;
  page.drawLine({
    start: { x, y: fromTop(page, base) },
    end: { x: x + width, y: fromTop(page, base) },
    thickness: 0.8,
  });
  const lines = wrapped(name, fonts.bold, 8, width, 5);
  lines.forEach((line, i) =>
    page.drawText(line, { x, y: fromTop(page, base + 12 + i * 9.5), size: 8, font: fonts.bold }),
  );
  page.drawText(fitted(role, fonts.regular, 8, width), {
    x,
    y: fromTop(page, base + 12 + lines.length * 9.5),
    size: 8,
    font: fonts.regular,
    color: GREY,
  });
}

/**
 * The signature pages appended to a document: a heading naming the document, and under each box the
 * name and role of who signs or seals there. The marks and the seal are drawn into the boxes afterwards.
 */
export function drawSignaturePages(
  pdf: PDFDocument,
  layout: SignaturePages,
  labels: SignaturePageLabels,
  fonts: Fonts,
): void {
  const pages: PDFPage[] = [];
  for (let k = 0; k < layout.count; k++) {
    const page = pdf.addPage([SIGNATURE_PAGE_SIZE.width, SIGNATURE_PAGE_SIZE.height]);
    pages.push(page);
    const title = layout.count > 1 ? `SIGNATURE PAGE ${k + 1} OF ${layout.count}` : 'SIGNATURE PAGE';
    page.drawText(title, { x: 60, y: fromTop(page, 72), size: 16, font: fonts.bold });
    page.drawText(fitted(`Part of: ${labels.documentName}`, fonts.regular, 10, 492), {
      x: 60,
      y: fromTop(page, 96),
      size: 10,
      font: fonts.regular,
    });
    page.drawText('The signatures and seal for which the document itself names no place.', {
      x: 60,
      y: fromTop(page, SIGNATURE_PAGE_TOP - 22),
      size: 9,
      font: fonts.regular,
      color: GREY,
    });
  }
  for (const slot of layout.slots) {
    const page = pages[slot.box.pageNum - layout.firstPage];
    if (slot.holder === 'notary-seal') continue;
    if (slot.holder === 'notary-signature') {
      const notary = labels.notary;
      const role = notary ? `Notary Public · Commission ${notary.commissionNumber}` : 'Notary Public';
      drawCaption(page, slot, notary?.name ?? '', role, fonts);
    } else {
      drawCaption(page, slot, labels.signers[signerOfKey(slot.holder).index] ?? '', 'Signer', fonts);
    }
  }
}

/** The signature pages alone, as a PDF, for showing them as images before the act ends. */
export async function signaturePagesPdf(
  layout: SignaturePages,
  labels: SignaturePageLabels,
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const fonts = {
    regular: await pdf.embedFont(FONTS.regular, { subset: true }),
    bold: await pdf.embedFont(FONTS.bold, { subset: true }),
  };
  drawSignaturePages(pdf, layout, labels, fonts);
  return Buffer.from(await pdf.save());
}
