import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A real PDF of about 50 KB: 20 pages of a deed's text. */
export async function deedPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const line =
    'The grantor conveys and warrants to the grantee the real property described herein, with all improvements.';
  for (let p = 0; p < 20; p++) {
    const page = pdf.addPage([612, 792]);
    for (let l = 0; l < 40; l++)
      page.drawText(`${p * 40 + l + 1}. ${line}`, { x: 36, y: 756 - l * 18, size: 9, font });
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}
