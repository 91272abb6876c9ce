import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { DocumentError } from './decode';

const run = promisify(execFile);
const LETTER: [number, number] = [612, 792];
const MARGIN = 54;
const FONT = fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));

/** The server cannot convert right now (LibreOffice missing or failing): not the integrator's fault. */
export class ConversionUnavailableError extends Error {}

/** One image on a letter page, scaled to fit within the margins. */
async function imageToPdf(bytes: Buffer, kind: 'png' | 'jpg'): Promise<Buffer> {
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
async function textToPdf(bytes: Buffer): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(FONT, { subset: true });
  const size = 11;
  const lineHeight = size * 1.4;
  const maxWidth = LETTER[0] - 2 * MARGIN;
  const lines: string[] = [];
  for (const paragraph of bytes.toString('utf8').replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n')) {
    let line = '';
    for (const word of paragraph.split(/(\s+)/)) {
      const candidate = line + word;
      if (line && font.widthOfTextAtSize(candidate, size) > maxWidth) {
        lines.push(line.trimEnd());
        line = word.trimStart();
      } else {
        line = candidate;
      }
    }
    lines.push(line);
  }
  const perPage = Math.floor((LETTER[1] - 2 * MARGIN) / lineHeight);
  for (let i = 0; i < Math.max(lines.length, 1); i += perPage) {
    const page = pdf.addPage(LETTER);
    lines.slice(i, i + perPage).forEach((text, j) => {
      page.drawText(text, { x: MARGIN, y: LETTER[1] - MARGIN - (j + 1) * lineHeight, size, font });
    });
  }
  return Buffer.from(await pdf.save());
}

/** DOCX through LibreOffice in headless mode, with a profile of its own so conversions can run side by side. */
async function docxToPdf(bytes: Buffer, soffice: string): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docx-'));
  try {
    const input = path.join(dir, 'document.docx');
    fs.writeFileSync(input, bytes);
    try {
      await run(
        soffice,
        [
          '--headless',
          '--norestore',
          `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
          '--convert-to',
          'pdf',
          '--outdir',
          dir,
          input,
        ],
        { timeout: 120_000 },
      );
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') {
        throw new ConversionUnavailableError(`DOCX conversion needs LibreOffice (${soffice} not found)`);
      }
      throw new ConversionUnavailableError(
        `LibreOffice could not run: ${(err as Error).message.slice(0, 200)}`,
      );
    }
    const output = path.join(dir, 'document.pdf');
    if (!fs.existsSync(output)) throw new Error('LibreOffice produced no PDF');
    return fs.readFileSync(output);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The PDF form of an uploaded document: PDFs as they are, other formats converted here, at upload, so
 * that a document that cannot be converted is refused now (naming its field), never at completion.
 */
export async function toPdf(
  bytes: Buffer,
  extension: string,
  soffice: string,
  label: string,
): Promise<Buffer> {
  try {
    return await convert(bytes, extension, soffice);
  } catch (err) {
    if (err instanceof ConversionUnavailableError || err instanceof DocumentError) throw err;
    throw new DocumentError(
      `${label}.base64Doc could not be converted to PDF: the .${extension} content is damaged or unsupported`,
    );
  }
}

function convert(bytes: Buffer, extension: string, soffice: string): Promise<Buffer> {
  switch (extension) {
    case 'pdf':
      return Promise.resolve(bytes);
    case 'png':
      return imageToPdf(bytes, 'png');
    case 'jpg':
    case 'jpeg':
      return imageToPdf(bytes, 'jpg');
    case 'txt':
      return textToPdf(bytes);
    case 'docx':
      return docxToPdf(bytes, soffice);
    default:
      throw new DocumentError(`.${extension} documents are not supported`);
  }
}
