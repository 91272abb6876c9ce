import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { placesOfDocument, type PlacedAnnotation, type SignerKey } from '../../core/session/signing';
import { signaturePagesOfDocument } from '../../core/session/placeGeometry';
import type { DigitalId } from './digitalId';
import { appendCertificatePages, type CertificateLine } from './certificatePages';
import { recordingCoverage, statutorySentences, type CoveredSegment } from './actWording';

import { FONTS } from './fonts';
import {
  drawNotarySignature,
  INK,
  stampFields,
  stampMarks,
  TEST_RED,
  type Ink,
  type Stamping,
} from './stamps';
import { drawSignaturePages } from './signaturePages';

export interface NotarialActContext {
  sessionId: string;
  actTypes: string[];
  venue: { state: string; county: string | null };
  performedAt: Date;
  /** The act's date (YYYY-MM-DD) and local time where the notary is commissioned. */
  actTime: { date: string; local: string };
  notary: { name: string; commissionNumber: string; commissionExpiresOn: string };
  /** The notary's adopted signature (PNG); none only in a test-mode session whose notary adopted none. */
  notarySignaturePng: Uint8Array | null;
  sealPng: Buffer;
  signers: Array<{ name: string; identityMethod: string; signedAt?: string }>;
  witnesses: Array<{ name: string; identityMethod?: string }>;
  document: { name: string; originalSha256: string; annotations: PlacedAnnotation[] };
  /** The marks the participants applied at this document's places (PNG), by place id. */
  marks: Array<{ place: string; participant: SignerKey; png: Uint8Array }>;
  /** What the act was: a live one with its recording (or why there is none), or a test-mode session. */
  act: ActKind;
}

export type ActKind =
  | { kind: 'test' }
  | { kind: 'live'; recording: { id: string; sha256: string; segments: CoveredSegment[] } }
  | { kind: 'live'; recording: null; reason: string };

/** Stamped on every page of a test-mode session's documents, the certificate's among them. */
export const TEST_MARK = 'TEST - NOT A NOTARIAL ACT';

/** The document's places, and the signature pages for whoever its own annotations leave out. */
function stampingOf(ctx: NotarialActContext, pageCount: number): Stamping {
  const annotations = ctx.document.annotations;
  const places = placesOfDocument(
    { id: 'document', annotations },
    { signers: ctx.signers.length, witnesses: ctx.witnesses.length },
  );
  return {
    annotations,
    places,
    signaturePages: signaturePagesOfDocument(annotations, places, pageCount),
    marks: ctx.marks,
    names: {
      signers: ctx.signers.map((s) => s.name),
      witnesses: ctx.witnesses.map((w) => w.name),
      notary: ctx.notary.name,
    },
    date: ctx.actTime.date,
    test: ctx.act.kind === 'test',
  };
}

/** How the act was performed: only a recorded live act states audio-video communication. */
function actLines(act: ActKind): CertificateLine[] {
  if (act.kind === 'test')
    return [
      { text: `${TEST_MARK}: a test-mode session, without audio-video communication.`, bold: true, after: 8 },
    ];
  if (!act.recording)
    return [
      { text: `No audio-video recording of this act is available: ${act.reason}.`, bold: true, after: 8 },
    ];
  return [
    { text: recordingCoverage(act.recording.segments) },
    { text: `Recording: ${act.recording.id}`, size: 9 },
    { text: 'SHA-256 of the recording:', size: 9 },
    { text: act.recording.sha256, size: 8.5, after: 8 },
  ];
}

function stampTestMark(pdf: PDFDocument, font: PDFFont) {
  for (const page of pdf.getPages()) {
    const size = 16;
    const width = font.widthOfTextAtSize(TEST_MARK, size);
    const { width: pageWidth, height } = page.getSize();
    page.drawText(TEST_MARK, {
      x: (pageWidth - width) / 2,
      y: height - 28,
      size,
      font,
      color: TEST_RED,
    });
  }
}

/** The certificate of the notarial act, appended after the document (on as many pages as it takes). */
function appendCertificate(pdf: PDFDocument, ctx: NotarialActContext, ink: Ink) {
  const county = ctx.venue.county ? `, County of ${ctx.venue.county}` : '';
  // A live act's signatures were applied only with the signer and the notary on camera (core/session/presence).
  const seen = ctx.act.kind === 'live' ? ', on camera with the notary' : '';
  const statutory =
    ctx.act.kind === 'live'
      ? statutorySentences(
          ctx.actTypes,
          ctx.signers.map((s) => s.name),
          ctx.actTime.date,
        ).map((text) => ({ text }))
      : [];
  const lines: CertificateLine[] = [
    { text: `Notarial act: ${ctx.actTypes.join(', ')}`, bold: true },
    { text: `Venue: State of ${ctx.venue.state}${county}` },
    { text: `Date of the act: ${ctx.actTime.local} (${ctx.performedAt.toISOString()})`, after: 6 },
    ...statutory,
    ...actLines(ctx.act),
    { text: 'Signers and how their identity was established:', bold: true },
    ...ctx.signers.map((signer) => ({
      text: `${signer.name} (${signer.identityMethod}); ${signer.signedAt ? `signed electronically ${signer.signedAt}${seen}` : 'no signature applied'}`,
      item: true,
    })),
    ...(ctx.witnesses.length
      ? [
          { text: 'Witnesses:', bold: true },
          ...ctx.witnesses.map((w) => ({
            text: w.identityMethod ? `${w.name} (${w.identityMethod})` : w.name,
            item: true,
          })),
        ]
      : []),
    { text: `Notary public: ${ctx.notary.name}`, bold: true },
    { text: `Commission number: ${ctx.notary.commissionNumber}` },
    { text: `Commission expires: ${ctx.notary.commissionExpiresOn}`, after: 8 },
    { text: `Document: ${ctx.document.name}` },
    { text: 'SHA-256 of the document as submitted:', size: 9 },
    { text: ctx.document.originalSha256, size: 8.5 },
    { text: `Session: ${ctx.sessionId}`, size: 9, after: 10 },
    {
      text: 'This document is digitally signed; any change made after signing invalidates the signature.',
      size: 9,
    },
  ];
  appendCertificatePages(pdf, 'CERTIFICATE OF NOTARIAL ACT', lines, {
    ...ink,
    color: INK,
    notarySignature: (page, box) => drawNotarySignature(page, box, ink),
  });
}

/**
 * The final notarized PDF: fields filled, seal and notary signature placed, the certificate page
 * appended, and the whole file signed (PAdES, ETSI.CAdES.detached) so that any later change shows.
 */
export async function notarizePdf(
  pdfBytes: Buffer,
  ctx: NotarialActContext,
  identity: DigitalId,
): Promise<Buffer> {
  const pdf = await PDFDocument.load(pdfBytes, { updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const ink: Ink = {
    regular: await pdf.embedFont(FONTS.regular, { subset: true }),
    bold: await pdf.embedFont(FONTS.bold, { subset: true }),
    seal: await pdf.embedPng(ctx.sealPng),
    notarySignature: ctx.notarySignaturePng ? await pdf.embedPng(ctx.notarySignaturePng) : null,
  };
  const stamping = stampingOf(ctx, pdf.getPageCount());
  drawSignaturePages(
    pdf,
    stamping.signaturePages,
    {
      documentName: ctx.document.name,
      signers: stamping.names.signers,
      notary: { name: ctx.notary.name, commissionNumber: ctx.notary.commissionNumber },
    },
    ink,
  );
  stampFields(pdf, stamping, ink);
  await stampMarks(pdf, stamping, ink);
  appendCertificate(pdf, ctx, ink);
  if (ctx.act.kind === 'test') stampTestMark(pdf, ink.bold);
  pdflibAddPlaceholder({
    pdfDoc: pdf,
    reason: ctx.act.kind === 'test' ? TEST_MARK : `Remote online notarization (${ctx.actTypes.join(', ')})`,
    contactInfo: ctx.notary.name,
    name: 'Notarization Service',
    location: `${ctx.venue.state}, US`,
    signatureLength: 16_384,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
  });
  const unsigned = Buffer.from(await pdf.save({ useObjectStreams: false }));
  return new SignPdf().sign(unsigned, new P12Signer(identity.p12, { passphrase: identity.passphrase }));
}
