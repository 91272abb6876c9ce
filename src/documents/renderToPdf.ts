import fs from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { assertTextPagesWithinLimits } from './documentLimits';

const LETTER: [number, number] = [612, 792];
const MARGIN = 54;
const FONT = fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));

/** One image on a letter page, scaled to fit within the margins. */
export async function imageToPdf(bytes: Buffer, kind: 'png' | 'jpg'): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  // pdf-lib reads the bytes through their ArrayBuffer from offset 0; small Buffers share a pool at an offset.
  const data = new Uint8Array(bytes);
  const image = kind === 'png' ? await pdf.embedPng(data) : await pdf.embedJpg(data);
  const page = pdf.addPage(LETTER);
  const scale = Math.min((LETTER[0] - 2 * MARGIN) / image.width, (LETTER[1] - 2 * MARGIN) / image.height, 1);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, { x: (LETTER[0] - width) / 2, y: LETTER[1] - MARGIN - height, width, height });
  return Buffer.from(await pdf.save());
}

/** UTF-8 text on letter pages, wrapped at the margins, in a font that covers more than Latin-1. */
export async function textToPdf(bytes: Buffer, field: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(FONT, { subset: true });
  const size = 11;
  const lineHeight = size * 1.4;
  const maxWidth = LETTER[0] - 2 * MARGIN;
  const perPage = Math.floor((LETTER[1] - 2 * MARGIN) / lineHeight);
  const lines: string[] = [];
  const push = (line: string) => {
    lines.push(line);
    // Refused as soon as it is too long, before laying out thousands of pages.
    if (lines.length % perPage === 1) assertTextPagesWithinLimits(Math.ceil(lines.length / perPage), field);
  };
  for (const paragraph of bytes.toString('utf8').replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n')) {
    let line = '';
    for (const word of paragraph.split(/(\s+)/)) {
      const candidate = line + word;
      if (line && font.widthOfTextAtSize(candidate, size) > maxWidth) {
        push(line.trimEnd());
        line = word.trimStart();
      } else {
        line = candidate;
      }
    }
    push(line);
  }
  for (let i = 0; i < Math.max(lines.length, 1); i += perPage) {
    const page = pdf.addPage(LETTER);
    lines.slice(i, i + perPage).forEach((text, j) => {
      page.drawText(text, { x: MARGIN, y: LETTER[1] - MARGIN - (j + 1) * lineHeight, size, font });
    });
  }
  return Buffer.from(await pdf.save());
}
