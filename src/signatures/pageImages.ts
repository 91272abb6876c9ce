import { spawn } from 'node:child_process';
import pLimit from 'p-limit';
import { PDFDocument } from 'pdf-lib';
import { unavailable } from '../domain/errors';

/** Page images are as wide as a desktop viewer shows them; the pages scale them down on a phone. */
export const PAGE_IMAGE_WIDTH = 1000;
const RENDERINGS_AT_ONCE = 2;
const RENDER_DEADLINE_MS = 20_000;
const CACHED_DOCUMENTS = 256;

export interface PageSize {
  width: number;
  height: number;
}

/** Page sizes of immutable documents, by document id, the most recently read kept. */
const sizes = new Map<string, PageSize[]>();

/** Each page's size in points, as it is shown (rotation applied). */
export async function pageSizesOf(documentId: string, pdf: () => Promise<Buffer>): Promise<PageSize[]> {
  const known = sizes.get(documentId);
  if (known) return known;
  const document = await PDFDocument.load(await pdf(), { ignoreEncryption: true, updateMetadata: false });
  const measured = document.getPages().map((page) => {
    const { width, height } = page.getSize();
    return page.getRotation().angle % 180 === 0 ? { width, height } : { width: height, height: width };
  });
  sizes.set(documentId, measured);
  if (sizes.size > CACHED_DOCUMENTS) sizes.delete(sizes.keys().next().value!);
  return measured;
}

const rendering = pLimit(RENDERINGS_AT_ONCE);
/** Rendered pages by the PDF's blob and page: every participant of a session sees the same ones. */
const rendered = new Map<string, Promise<Buffer>>();
const CACHED_PAGES = 400;

/**
 * One page as a PNG, rendered once per stored PDF and page (a render under way is shared, a
 * failed one forgotten), the most recent kept.
 */
export function pageImage(blobId: string, pageNum: number, pdf: () => Promise<Buffer>): Promise<Buffer> {
  const key = `${blobId}/${pageNum}`;
  const known = rendered.get(key);
  if (known) {
    rendered.delete(key);
    rendered.set(key, known);
    return known;
  }
  const made = pdf().then((bytes) => renderPage(bytes, pageNum));
  rendered.set(key, made);
  made.catch(() => rendered.delete(key));
  if (rendered.size > CACHED_PAGES) rendered.delete(rendered.keys().next().value!);
  return made;
}

/** One page as a PNG, rendered by Poppler's pdftoppm, a few at a time and within a deadline. */
function renderPage(pdf: Buffer, pageNum: number): Promise<Buffer> {
  return rendering(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        const child = spawn(
          'pdftoppm',
          ['-png', '-f', `${pageNum}`, '-l', `${pageNum}`, '-scale-to-x', `${PAGE_IMAGE_WIDTH}`].concat([
            '-scale-to-y',
            '-1',
            '-singlefile',
            '-',
          ]),
          { stdio: ['pipe', 'pipe', 'ignore'] },
        );
        const chunks: Buffer[] = [];
        const timer = setTimeout(() => child.kill('SIGKILL'), RENDER_DEADLINE_MS);
        child.on('error', () => reject(unavailable('Document pages cannot be shown now; retry')));
        child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
        child.on('close', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(Buffer.concat(chunks));
          else reject(unavailable('Document pages cannot be shown now; retry'));
        });
        child.stdin.on('error', () => undefined);
        child.stdin.end(pdf);
      }),
  );
}
