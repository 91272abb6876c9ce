import type { Sequelize } from 'sequelize';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { notFound, rateLimited } from '../domain/errors';
import { queryRows } from '../db/query';
import { readBlob } from '../documents/blobStore';
import { PageRenderer, pageSizesOf } from './pageImages';
import { sessionPlaces } from './sessionPlaces';

/**
 * Pages a signing link may have rendered in a minute: more than its documents' pages a person reads,
 * far fewer than a script asking for page after page of a heavy PDF.
 */
const PAGE_RENDERS_PER_LINK_PER_MINUTE = 120;

/** The pages of a session's documents as images, for its participants' links and its notary. */
export class SessionPages {
  private readonly renderer = new PageRenderer();
  private readonly rendersPerLink = new RateLimiterMemory({
    keyPrefix: 'page-renders',
    points: PAGE_RENDERS_PER_LINK_PER_MINUTE,
    duration: 60,
  });

  constructor(private readonly sequelize: Sequelize) {}

  /** `link`: the signing link asking, whose renders (not pages already made) count against its budget. */
  async image(sessionId: string, documentId: string, pageNum: number, link?: string): Promise<Buffer> {
    const { documents } = await sessionPlaces(this.sequelize, sessionId);
    const document = documents.find((d) => d.id === documentId);
    if (!document) throw notFound('Document not found');
    const pdf = () => readBlob(this.sequelize, document.pdf_blob_id);
    const pages = await pageSizesOf(document.id, pdf);
    if (pageNum > pages.length) throw notFound('Page not found');
    const [session] = await queryRows<{ account_id: string }>(
      this.sequelize,
      'SELECT account_id FROM sessions WHERE id = $1',
      { bind: [sessionId] },
    );
    const page = {
      accountId: session.account_id,
      blobId: document.pdf_blob_id,
      pageNum,
      size: pages[pageNum - 1],
    };
    return this.renderer.image(page, pdf, link === undefined ? undefined : () => this.charge(link));
  }

  private async charge(link: string): Promise<void> {
    try {
      await this.rendersPerLink.consume(link);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw rateLimited(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
      throw err;
    }
  }
}
