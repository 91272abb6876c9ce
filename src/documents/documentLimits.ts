import zlib from 'node:zlib';
import { DocumentError } from './documentError';

/**
 * What one uploaded document may cost to read, far above any real document (a 300-page scanned contract
 * is a few thousand pixels a side, a few hundred pages, tens of MB inflated): each limit is checked from
 * the cheapest evidence before the expensive work it guards.
 */
export const DOCUMENT_LIMITS = {
  imageMegapixels: 50,
  textPages: 500,
  pdfPages: 2_000,
  pdfInflatedBytes: 128 * 1024 * 1024,
};

/** Width × height from a PNG's IHDR or a JPEG's frame header, without decoding the image. */
function imageSize(bytes: Buffer, kind: 'png' | 'jpg'): { width: number; height: number } | undefined {
  if (kind === 'png') {
    return bytes.length >= 24 ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : undefined;
  }
  for (let i = 2; i + 9 < bytes.length;) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1];
    // SOF0–SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    }
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  return undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The size of a PNG or JPEG image from its header; undefined for anything else. */
export function imageDimensions(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return imageSize(bytes, 'png');
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return imageSize(bytes, 'jpg');
  return undefined;
}

export function assertImageWithinLimits(bytes: Buffer, kind: 'png' | 'jpg', field: string): void {
  const size = imageSize(bytes, kind);
  if (size && size.width * size.height > DOCUMENT_LIMITS.imageMegapixels * 1_000_000) {
    throw new DocumentError(
      `${field}: the image is ${size.width}×${size.height} pixels; at most ${DOCUMENT_LIMITS.imageMegapixels} megapixels are accepted`,
    );
  }
}

export function assertTextPagesWithinLimits(pages: number, field: string): void {
  if (pages > DOCUMENT_LIMITS.textPages)
    throw new DocumentError(`${field}: the text makes more than ${DOCUMENT_LIMITS.textPages} pages`);
}

export function assertPdfPagesWithinLimits(pages: number, field: string): void {
  if (pages > DOCUMENT_LIMITS.pdfPages)
    throw new DocumentError(
      `${field}: the PDF has ${pages} pages; at most ${DOCUMENT_LIMITS.pdfPages} are accepted`,
    );
}

/** A stream that inflates to at most this much is inflated in one synchronous call; larger ones stream. */
const SMALL_INFLATION_BYTES = 4 * 1024 * 1024;

/**
 * Bytes `data` inflates to, given up past `limit`, nothing of it kept. Most streams of a real PDF are small
 * and are inflated in one call (this runs on a document thread, never the event loop); one that would pass
 * SMALL_INFLATION_BYTES, or is not Flate data, is counted as it streams instead.
 */
function inflatedSize(data: Buffer, limit: number): Promise<number> | number {
  try {
    return zlib.inflateSync(data, { maxOutputLength: Math.min(limit + 1, SMALL_INFLATION_BYTES) }).length;
  } catch {
    return streamedInflatedSize(data, limit);
  }
}

function streamedInflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    // Output in 1 MiB chunks: zlib's default 16 KiB makes counting a large stream many times slower.
    const inflate = zlib.createInflate({ chunkSize: 1024 * 1024 });
    let size = 0;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) inflate.destroy();
    });
    inflate.on('close', () => resolve(size));
    // Not Flate data (images, other filters) or cut short: what it gave so far is what counts.
    inflate.on('error', () => resolve(size));
    inflate.end(data);
  });
}

/**
 * The most Flate data can inflate to, per byte: a 258-byte copy coded in two bits, each code one bit long
 * (RFC 1951, 3.2.5 and 3.2.7).
 */
const MOST_INFLATED_PER_BYTE = 1032;

/** A file this small (a PDF under about 127 KB) cannot pass the inflation limit however its streams are made. */
export function cannotInflatePastLimit(bytes: Uint8Array): boolean {
  return bytes.length * MOST_INFLATED_PER_BYTE <= DOCUMENT_LIMITS.pdfInflatedBytes;
}

/**
 * Inflates the PDF's Flate streams with a running cap before any parser does, so a small file that
 * inflates to gigabytes is refused after the cap, not after the gigabytes.
 */
export async function assertPdfInflatesWithinLimits(bytes: Buffer, field: string): Promise<void> {
  // The inflating, a fifth of a small PDF's check, is skipped where it cannot fail.
  if (cannotInflatePastLimit(bytes)) return;
  let remaining = DOCUMENT_LIMITS.pdfInflatedBytes;
  for (let at = bytes.indexOf('stream'); at !== -1; at = bytes.indexOf('stream', at + 6)) {
    // `endstream` contains `stream` too; a stream's data starts after `stream` and its end of line.
    if (bytes.subarray(Math.max(0, at - 3), at).toString('latin1') === 'end') continue;
    let start = at + 6;
    if (bytes[start] === 0x0d) start += 1;
    if (bytes[start] === 0x0a) start += 1;
    const end = bytes.indexOf('endstream', start);
    if (end === -1) return;
    remaining -= await inflatedSize(bytes.subarray(start, end), remaining);
    if (remaining < 0)
      throw new DocumentError(
        `${field}: the PDF inflates to more than ${DOCUMENT_LIMITS.pdfInflatedBytes / 1024 / 1024} MB`,
      );
    at = end;
  }
}
