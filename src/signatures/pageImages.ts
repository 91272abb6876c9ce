import { spawn } from 'node:child_process';
import pLimit from 'p-limit';
import { PDFDocument } from 'pdf-lib';
import { DomainError, unavailable } from '../domain/errors';
import type { PageSize } from '../../core/wire/signingView';

/** Page images are as wide as a desktop viewer shows them; the pages scale them down on a phone. */
export const PAGE_IMAGE_WIDTH = 1000;
/** A page image's height at most: a page drawn 1000 px wide and taller than this is drawn narrower. */
export const PAGE_IMAGE_MAX_HEIGHT = 2000;
const RENDERINGS_AT_ONCE = 2;
/** Renders one account may have waiting for its slot; past this, a page asks to be retried. */
const WAITING_PER_ACCOUNT = 16;
const RENDER_DEADLINE_MS = 20_000;
/** A page that failed to render fails again at once for this long, rather than taking a slot again. */
const FAILED_RENDER_KEPT_MS = 10 * 60_000;
const CACHED_DOCUMENTS = 256;

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

const CACHED_PAGES = 400;

/** The image's size in pixels: 1000 px wide, narrower where that would make it taller than the limit. */
export function pageImageSize(page: PageSize): { width: number; height: number } {
  const scale = Math.min(PAGE_IMAGE_WIDTH / page.width, PAGE_IMAGE_MAX_HEIGHT / page.height);
  return {
    width: Math.max(1, Math.round(page.width * scale)),
    height: Math.max(1, Math.round(page.height * scale)),
  };
}

const unrenderable = () =>
  new DomainError('invalid', 'This page cannot be shown as an image; open the document instead');

/**
 * Pages as PNGs, rendered once per stored PDF and page (a render under way is shared; a failed one is
 * remembered for a while), the most recent kept. Renders take one of a few slots, and one account at
 * most one of them at a time: an account's hostile PDF slows its own pages, never another's.
 */
export class PageRenderer {
  private readonly slots = pLimit(RENDERINGS_AT_ONCE);
  private readonly perAccount = new Map<string, ReturnType<typeof pLimit>>();
  private readonly rendered = new Map<string, Promise<Buffer>>();

  /** `charge`: called before a render (not for a page already made), to refuse one over its budget. */
  async image(
    page: { accountId: string; blobId: string; pageNum: number; size: PageSize },
    pdf: () => Promise<Buffer>,
    charge: () => Promise<void> = async () => undefined,
  ): Promise<Buffer> {
    const key = `${page.blobId}/${page.pageNum}`;
    const known = this.rendered.get(key);
    if (known) {
      this.rendered.delete(key);
      this.rendered.set(key, known);
      return known;
    }
    await charge();
    const made = this.inAccountSlot(page.accountId, async () =>
      renderPage(await pdf(), page.pageNum, pageImageSize(page.size)),
    );
    this.rendered.set(key, made);
    made.catch((err: unknown) => {
      // A render the machine could not start (no slot, no Poppler) is tried again; the page's own failure is kept.
      if (!(err instanceof DomainError && err.kind === 'invalid')) this.rendered.delete(key);
      else
        setTimeout(
          () => this.rendered.get(key) === made && this.rendered.delete(key),
          FAILED_RENDER_KEPT_MS,
        ).unref();
    });
    if (this.rendered.size > CACHED_PAGES) this.rendered.delete(this.rendered.keys().next().value!);
    return made;
  }

  private inAccountSlot(accountId: string, render: () => Promise<Buffer>): Promise<Buffer> {
    let own = this.perAccount.get(accountId);
    if (!own) this.perAccount.set(accountId, (own = pLimit(1)));
    if (own.pendingCount >= WAITING_PER_ACCOUNT)
      return Promise.reject(
        new DomainError('unavailable', 'Document pages are being prepared; retry', {}, 2),
      );
    const limit = own;
    return limit(() => this.slots(render)).finally(() => {
      if (limit.activeCount === 0 && limit.pendingCount === 0) this.perAccount.delete(accountId);
    });
  }
}

/** One page as a PNG of `size`, rendered by Poppler's pdftoppm within a deadline. */
function renderPage(pdf: Buffer, pageNum: number, size: { width: number; height: number }): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const child = spawn(
      'pdftoppm',
      ['-png', '-f', `${pageNum}`, '-l', `${pageNum}`, '-scale-to-x', `${size.width}`].concat([
        '-scale-to-y',
        `${size.height}`,
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
      else reject(unrenderable());
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(pdf);
  });
}
