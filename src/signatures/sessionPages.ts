import type { Sequelize } from 'sequelize';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { notFound, rateLimited } from '../domain/errors';
import { queryRows } from '../db/query';
import { readBlob } from '../documents/blobStore';
import { PageRenderer, pageSizesOf } from './pageImages';
import { sessionPlaces, type SigningDocument } from '../reads/sessionPlaces';
import { SIGNATURE_PAGE_SIZE, signaturePagesOfDocument } from '../../core/session/placeGeometry';
import type { SigningPlace } from '../../core/session/signing';
import type { NotaryAtTheAct } from '../../core/session/messages';
import { signaturePagesPdf } from '../notarizedPdf/signaturePages';
import { NOTARY_AT_THE_ACT, SESSION_NOTARY_JOINS } from '../db/sessionNotary';
import crypto from 'node:crypto';

/**
 * Pages a signing link may have rendered in a minute: more than its documents' pages a person reads,
 * far fewer than a script asking for page after page of a heavy PDF.
 */
const PAGE_RENDERS_PER_LINK_PER_MINUTE = 120;

interface SessionLabels {
  account_id: string;
  notary: NotaryAtTheAct;
  signers: string[];
}

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
    const { documents, places } = await sessionPlaces(this.sequelize, sessionId);
    const document = documents.find((d) => d.id === documentId);
    if (!document) throw notFound('Document not found');
    const [session] = await queryRows<{ account_id: string }>(
      this.sequelize,
      'SELECT account_id FROM sessions WHERE id = $1',
      { bind: [sessionId] },
    );
    const charge = link === undefined ? undefined : () => this.charge(link);
    const source = () => readBlob(this.sequelize, document.pdf_blob_id);
    const pages = await pageSizesOf(document.id, source);
    if (pageNum <= pages.length) {
      const page = {
        accountId: session.account_id,
        blobId: document.pdf_blob_id,
        pageNum,
        size: pages[pageNum - 1],
      };
      return this.renderer.image(page, source, charge);
    }
    return this.signaturePage(sessionId, document, places, pages.length, pageNum, charge);
  }

  /** A signature page as the notarized document will have it, before the marks and the seal. */
  private async signaturePage(
    sessionId: string,
    document: SigningDocument,
    places: SigningPlace[],
    sourcePages: number,
    pageNum: number,
    charge?: () => Promise<void>,
  ): Promise<Buffer> {
    const own = places.filter((p) => p.document === document.id);
    const layout = signaturePagesOfDocument(document.annotations, own, sourcePages);
    if (pageNum > sourcePages + layout.count) throw notFound('Page not found');
    const [session] = await queryRows<SessionLabels>(
      this.sequelize,
      `SELECT s.account_id, ${NOTARY_AT_THE_ACT} AS notary,
              array(SELECT coalesce(nullif(concat_ws(' ', p.first_name, p.last_name), ''), p.email)
                      FROM participants p WHERE p.session_id = s.id AND p.role = 'signer' ORDER BY p.index) AS signers
         FROM sessions s ${SESSION_NOTARY_JOINS} WHERE s.id = $1`,
      { bind: [sessionId] },
    );
    const { name, commission_number } = session.notary;
    const labels = {
      documentName: document.name,
      signers: session.signers,
      notary: name && commission_number ? { name, commissionNumber: commission_number } : null,
    };
    // Names can change until the act: the image is kept under what it shows.
    const shown = crypto
      .createHash('sha256')
      .update(JSON.stringify([layout, labels]))
      .digest('hex');
    const page = {
      accountId: session.account_id,
      blobId: `signature-pages/${shown}`,
      pageNum: pageNum - sourcePages,
      size: SIGNATURE_PAGE_SIZE,
    };
    return this.renderer.image(page, () => signaturePagesPdf(layout, labels), charge);
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
