import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * PDFs in the shapes producers write them (cross-reference tables or streams, object streams, incremental
 * updates, nested page trees, indirect lengths, escaped names), and shapes pdf-lib has to recover from: what
 * the document check's page count is held against.
 */

/** A file of numbered objects with a correct cross-reference table, the way most producers write one. */
export function assemblePdf(
  objects: (string | Buffer)[],
  { trailer = '/Root 1 0 R', between = '\n', header = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n' } = {},
): Buffer {
  const parts: Buffer[] = [Buffer.from(header, 'latin1')];
  let length = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const object = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from(`\nendobj${between}`, 'latin1'),
    ]);
    parts.push(object);
    length += object.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} ${trailer} >>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n');
  return Buffer.concat([...parts, Buffer.from(xref, 'latin1')]);
}

const content = (text: string) => {
  const ops = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  return `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`;
};

/** Written by hand as older producers do: a two-level page tree, comments, an indirect length, `#` in names. */
export function handMadePdf(pages: number): Buffer {
  // 1 catalog, 2 root Pages, 3 font, 4 the length of the first page's stream, then per page a leaf and its
  // content, under two intermediate Pages nodes (5 + 2 * pages and the next).
  const first = 5 + 2 * pages;
  const half = Math.ceil(pages / 2);
  const leaf = (i: number) => 5 + 2 * i;
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${first} 0 R ${first + 1} 0 R] /Count ${pages} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica#2DBold >>',
    '0',
  ];
  for (let i = 0; i < pages; i++) {
    objects.push(
      `<< /Ty#70e /Page % a comment inside a dictionary\n /Parent ${i < half ? first : first + 1} 0 R ` +
        `/MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${leaf(i) + 1} 0 R ` +
        `/Annots [] /Note (a (balanced) string with \\) an escape) /Hex <48656C6C6F> >>`,
    );
    const ops = `BT /F1 12 Tf 72 720 Td (Page ${i + 1}) Tj ET`;
    if (i === 0) {
      objects[3] = String(ops.length);
      objects.push(`<< /Length 4 0 R >>\nstream\r\n${ops}\r\nendstream`);
    } else {
      objects.push(content(`Page ${i + 1}`));
    }
  }
  const kids = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, k) => `${leaf(from + k)} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Parent 2 0 R /Kids [${kids(0, half)}] /Count ${half} >>`);
  objects.push(`<< /Type /Pages /Parent 2 0 R /Kids [${kids(half, pages)}] /Count ${pages - half} >>`);
  return assemblePdf(objects, { between: '\n% between objects\n' });
}

/** Made by pdf-lib, with or without object streams (its default is with). */
export async function pdfLibPdf(pages: number, useObjectStreams: boolean): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  for (let i = 0; i < pages; i++) {
    pdf.addPage([612, 792]).drawText(`Page ${i + 1} (of ${pages}) \\ with a backslash`, {
      x: 72,
      y: 720,
      size: 12,
      font,
    });
  }
  return Buffer.from(await pdf.save({ useObjectStreams }));
}

/**
 * A hand-made PDF of `pages` pages updated incrementally, as a viewer saves an edit: a page appended, the
 * root Pages written again under its number, a second cross-reference section pointing back to the first.
 */
export function incrementallyUpdatedPdf(pages: number): Buffer {
  const pdf = handMadePdf(pages);
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(pdf.toString('latin1'))![1]);
  const first = 5 + 2 * pages;
  const page = 900;
  const update = [
    `\n${page} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n`,
    `2 0 obj\n<< /Type /Pages /Kids [${first} 0 R ${first + 1} 0 R ${page} 0 R] /Count ${pages + 1} >>\nendobj\n`,
  ];
  const pageAt = pdf.length + 1;
  const pagesAt = pdf.length + Buffer.byteLength(update[0]);
  const xref = [
    'xref',
    '2 1',
    `${String(pagesAt).padStart(10, '0')} 00000 n `,
    `${page} 1`,
    `${String(pageAt).padStart(10, '0')} 00000 n `,
    'trailer',
    `<< /Size ${page + 1} /Root 1 0 R /Prev ${startxref} >>`,
    'startxref',
    String(pdf.length + Buffer.byteLength(update.join(''))),
    '%%EOF',
    '',
  ].join('\n');
  return Buffer.concat([pdf, Buffer.from(update.join('') + xref, 'latin1')]);
}
