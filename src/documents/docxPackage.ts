import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { DocumentError } from './decode';

/** Far above any real document: a 300-page contract with images holds a few hundred parts and tens of MB. */
export const DOCX_LIMITS = { maxParts: 1000, maxUncompressedBytes: 100 * 1024 * 1024 };

// A relationship to something outside the package (a linked image, a remote template, external data):
// LibreOffice would fetch it while converting.
const EXTERNAL_RELATIONSHIP =
  /<Relationship\b[^>]*\bTargetMode\s*=\s*["']External["'][^>]*?(\/>|>[\s\S]*?<\/Relationship>)/gi;

/**
 * The DOCX LibreOffice is given: within the limits, read from the ZIP's own size fields before anything
 * is inflated, and with every external relationship removed.
 */
export function containedDocx(bytes: Buffer, label: string): Buffer {
  let parts = 0;
  let uncompressed = 0;
  const tooLarge = new DocumentError(
    `${label}.base64Doc: a DOCX may hold at most ${DOCX_LIMITS.maxParts} parts and ` +
      `${DOCX_LIMITS.maxUncompressedBytes / 1024 / 1024} MB uncompressed`,
  );
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(bytes), {
      filter: (file) => {
        parts += 1;
        uncompressed += file.originalSize;
        if (parts > DOCX_LIMITS.maxParts || uncompressed > DOCX_LIMITS.maxUncompressedBytes) throw tooLarge;
        return true;
      },
    });
  } catch (err) {
    if (err === tooLarge) throw tooLarge;
    throw new DocumentError(
      `${label}.base64Doc could not be converted to PDF: the .docx content is damaged or unsupported`,
    );
  }
  for (const name of Object.keys(files)) {
    if (name.endsWith('.rels'))
      files[name] = strToU8(strFromU8(files[name]).replace(EXTERNAL_RELATIONSHIP, ''));
  }
  return Buffer.from(zipSync(files));
}

/**
 * A one-paragraph DOCX that any working LibreOffice converts: when it converts and an upload did not,
 * the upload is what fails, not the converter.
 */
export function knownGoodDocx(): Buffer {
  const xml = (body: string) => strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${body}`);
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
          '</Types>',
      ),
      '_rels/.rels': xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
          '</Relationships>',
      ),
      'word/document.xml': xml(
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
          '<w:body><w:p><w:r><w:t>Conversion check</w:t></w:r></w:p></w:body></w:document>',
      ),
    }),
  );
}
