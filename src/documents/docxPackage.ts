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
