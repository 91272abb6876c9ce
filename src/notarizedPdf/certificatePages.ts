import { rgb, type PDFDocument, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';

const PAGE: [number, number] = [612, 792];
const LEFT = 60;
const WIDTH = 492;
const TOP = 730;
const BOTTOM = 60;
/** The seal and the notary's signature close the certificate: they need this much room above BOTTOM. */
const CLOSING_HEIGHT = 170;

export interface CertificateInk {
  regular: PDFFont;
  bold: PDFFont;
  seal: PDFImage;
  color: ReturnType<typeof rgb>;
  /** Draws the notary's adopted signature into a box (PDF coordinates). */
  notarySignature: (page: PDFPage, box: { x: number; y: number; width: number; height: number }) => void;
}

export interface CertificateLine {
  text: string;
  bold?: boolean;
  size?: number;
  /** Extra space after the line. */
  after?: number;
  /** A list item: indented, its wrapped lines too. */
  item?: boolean;
}

/** Words of `text` broken into lines no wider than `width` (a word longer than the width stands alone). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/(?<=\s)/)) {
    if (line && font.widthOfTextAtSize(line + word, size) > width) {
      lines.push(line.trimEnd());
      line = word.trimStart();
    } else {
      line += word;
    }
  }
  lines.push(line.trimEnd());
  return lines;
}

/**
 * The certificate of the notarial act as pages appended to the document: its lines flow onto
 * continuation pages ("continued", page n of m) however many signers and witnesses there are, and the
 * seal and the notary's signature close it below the last line, never over text.
 */
export function appendCertificatePages(
  pdf: PDFDocument,
  title: string,
  lines: CertificateLine[],
  ink: CertificateInk,
): void {
  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const newPage = () => {
    page = pdf.addPage(PAGE);
    pages.push(page);
    y = TOP;
    const heading = pages.length === 1 ? title : `${title} (continued)`;
    page.drawText(heading, { x: LEFT, y, size: 16, font: ink.bold });
    y -= 30;
  };
  newPage();
  for (const { text, bold, size = 11, after = 0, item } of lines) {
    const font = bold ? ink.bold : ink.regular;
    const height = size * 1.6;
    const indent = item ? 14 : 0;
    const parts = wrap(text, font, size, WIDTH - indent);
    // One entry (a name that wrapped) stays on one page.
    if (y - parts.length * height < BOTTOM) newPage();
    for (const part of parts) {
      page.drawText(part, { x: LEFT + indent, y, size, font });
      y -= height;
    }
    y -= after;
  }
  if (y - CLOSING_HEIGHT < BOTTOM) newPage();
  const scale = Math.min(150 / ink.seal.width, 150 / ink.seal.height);
  page.drawImage(ink.seal, {
    x: LEFT,
    y: BOTTOM,
    width: ink.seal.width * scale,
    height: ink.seal.height * scale,
  });
  ink.notarySignature(page, { x: 300, y: 106, width: 252, height: 63 });
  page.drawLine({ start: { x: 300, y: 104 }, end: { x: 552, y: 104 }, thickness: 0.8, color: ink.color });
  page.drawText('Notary Public', { x: 300, y: 90, size: 9, font: ink.regular });
  if (pages.length > 1) {
    pages.forEach((p, i) =>
      p.drawText(`Certificate page ${i + 1} of ${pages.length}`, {
        x: LEFT,
        y: 36,
        size: 8,
        font: ink.regular,
      }),
    );
  }
}
