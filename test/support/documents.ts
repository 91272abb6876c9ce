import fs from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export const MB10 = 10 * 1024 * 1024;

/** A real PDF with `pages` pages, each carrying its number, optionally padded to exactly `size` bytes. */
export async function pdfBytes(pages = 1, size?: number, label = 'Test document'): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    pdf.addPage([612, 792]).drawText(`${label} page ${i + 1}`, { x: 72, y: 720, size: 14, font });
  }
  const bytes = Buffer.from(await pdf.save());
  if (size === undefined) return bytes;
  // PDF readers ignore bytes after %%EOF; a comment line pads to the exact size wanted.
  if (size < bytes.length + 2) throw new Error('size too small for the PDF');
  return Buffer.concat([bytes, Buffer.from('%'), Buffer.alloc(size - bytes.length - 1, 0x20)]);
}

export const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A minimal baseline JPEG (1×1). */
export const JPEG_1x1 = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

export const TEXT = Buffer.from('Affidavit of identity\nSigned before a notary.\n');

const WORD_DOCUMENT = strToU8(
  '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
    '<w:body><w:p><w:r><w:t>Power of attorney</w:t></w:r></w:p></w:body></w:document>',
);

/** A minimal DOCX: the parts that make a ZIP a Word document, with `document` as its main part. */
export function docxBytes(
  document: Uint8Array = WORD_DOCUMENT,
  parts: Record<string, Uint8Array> = {},
): Buffer {
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      '_rels/.rels': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      'word/document.xml': document,
      ...parts,
    }),
  );
}

export function b64(bytes: Buffer): string {
  return bytes.toString('base64');
}

/** A pre-placed signer field on page 1; override any property. */
export function annotation(extra: Record<string, unknown> = {}) {
  return {
    fieldType: 'signature',
    pageNum: 1,
    x: 72,
    y: 600,
    width: 150,
    height: 40,
    role: 'signer',
    ...extra,
  };
}

/**
 * The LibreOffice conversions running on this machine now, by their output directories (from the command
 * lines in /proc, whatever wraps the process). One whose directory is gone has ended for the service,
 * even if its process is still shutting down.
 */
export function libreOfficeConversions(): Set<string> {
  const outdirs = new Set<string>();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
      const at = args.indexOf('--outdir');
      if (args.some((a) => a.includes('soffice')) && args.includes('--convert-to') && at !== -1)
        outdirs.add(args[at + 1]);
    } catch {
      // The process ended while being read.
    }
  }
  return new Set([...outdirs].filter((dir) => fs.existsSync(dir)));
}
