import fs from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { placesOfDocument, type PlacedAnnotation, type SignerKey } from '../../core/session/signing';
import { boxOfPlace, type PlaceBox } from '../signatures/placeGeometry';
import type { DigitalId } from './digitalId';
import { appendCertificatePages, type CertificateLine } from './certificatePages';
import { recordingCoverage, statutorySentences, type CoveredSegment } from './actWording';

const FONTS = {
  regular: fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
  bold: fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  signature: fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif-Italic.ttf')),
};
const INK = rgb(0.1, 0.15, 0.45);
const TEST_RED = rgb(0.8, 0.05, 0.05);

export interface NotarialActContext {
  sessionId: string;
  actTypes: string[];
  venue: { state: string; county: string | null };
  performedAt: Date;
  /** The act's date (YYYY-MM-DD) and local time where the notary is commissioned. */
  actTime: { date: string; local: string };
  notary: { name: string; commissionNumber: string; commissionExpiresOn: string };
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

interface Ink {
  regular: PDFFont;
  bold: PDFFont;
  signature: PDFFont;
  seal: PDFImage;
}

/** Text fitted into a box: as large as the box allows, at most `max` points. */
function drawFitted(
  page: PDFPage,
  text: string,
  font: PDFFont,
  box: { x: number; y: number; width: number; height: number },
  max = 14,
  color = INK,
) {
  const size = Math.max(
    4,
    Math.min(max, box.height * 0.7, (box.width / Math.max(font.widthOfTextAtSize(text, 10), 1)) * 10),
  );
  page.drawText(text, { x: box.x, y: box.y + (box.height - size) / 2, size, font, color });
}

function drawSeal(
  page: PDFPage,
  seal: PDFImage,
  box: { x: number; y: number; width: number; height: number },
) {
  const scale = Math.min(box.width / seal.width, box.height / seal.height);
  page.drawImage(seal, { x: box.x, y: box.y, width: seal.width * scale, height: seal.height * scale });
}

/** Stamped at a place nobody signed in a test-mode session (its documents say they are no notarial act). */
export const TEST_SIGNATURE = 'TEST SIGNATURE';

/**
 * Each participant's adopted mark, exactly in the box of each place they applied it at; in a test-mode
 * session, a visible test stamp at a place left unsigned. A live act completes only once every place is.
 */
async function stampMarks(pdf: PDFDocument, ctx: NotarialActContext, ink: Ink) {
  const pages = pdf.getPages();
  const lastPage = pages[pages.length - 1];
  const last = { pageNum: pages.length, width: lastPage.getWidth(), height: lastPage.getHeight() };
  const places = placesOfDocument(
    { id: 'document', annotations: ctx.document.annotations },
    { signers: ctx.signers.length, witnesses: ctx.witnesses.length },
  );
  for (const place of places) {
    const box = boxOfPlace(place, ctx.document.annotations, last);
    const page = pages[box.pageNum - 1];
    if (!page) continue;
    const at = pdfBox(page, box);
    const mark = ctx.marks.find((m) => m.place === place.place);
    if (mark) {
      const image = await pdf.embedPng(mark.png);
      const scale = Math.min(at.width / image.width, at.height / image.height);
      const [width, height] = [image.width * scale, image.height * scale];
      page.drawImage(image, {
        x: at.x + (at.width - width) / 2,
        y: at.y + (at.height - height) / 2,
        width,
        height,
      });
    } else if (ctx.act.kind === 'test') {
      page.drawRectangle({ ...at, borderColor: TEST_RED, borderWidth: 1 });
      drawFitted(page, TEST_SIGNATURE, ink.bold, at, 12, TEST_RED);
    }
  }
}

/** Annotations measure y from the top of the page; PDF measures from the bottom. */
const pdfBox = (page: PDFPage, a: PlaceBox) => ({
  x: a.x,
  y: page.getHeight() - a.y - a.height,
  width: a.width,
  height: a.height,
});

/** Fills the pre-placed fields, and places the seal and the notary's signature where no field asked for them. */
function stampFields(pdf: PDFDocument, ctx: NotarialActContext, ink: Ink) {
  const pages = pdf.getPages();
  const { date } = ctx.actTime;
  let sealPlaced = false;
  let signaturePlaced = false;
  for (const a of ctx.document.annotations) {
    const page = pages[a.pageNum - 1];
    if (!page) continue;
    const box = pdfBox(page, a);
    const person =
      a.role === 'signer'
        ? ctx.signers[a.participant_index]?.name
        : a.role === 'witness'
          ? ctx.witnesses[a.participant_index]?.name
          : ctx.notary.name;
    if (a.fieldType === 'notary_seal') {
      drawSeal(page, ink.seal, box);
      sealPlaced = true;
    } else if (a.fieldType === 'notary_signature') {
      drawFitted(page, `/s/ ${ctx.notary.name}`, ink.signature, box);
      signaturePlaced = true;
    } else if (person && a.fieldType === 'full_name') {
      drawFitted(page, person, ink.regular, box);
    } else if (a.fieldType === 'date_signed') {
      drawFitted(page, date, ink.regular, box);
    }
  }
  const last = pages[pages.length - 1];
  if (!sealPlaced) drawSeal(last, ink.seal, { x: 40, y: 40, width: 110, height: 110 });
  if (!signaturePlaced) {
    drawFitted(
      last,
      `/s/ ${ctx.notary.name}`,
      ink.signature,
      { x: last.getWidth() - 260, y: 70, width: 220, height: 24 },
      16,
    );
    drawFitted(
      last,
      'Notary Public',
      ink.regular,
      { x: last.getWidth() - 260, y: 52, width: 120, height: 14 },
      9,
    );
  }
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
  appendCertificatePages(pdf, 'CERTIFICATE OF NOTARIAL ACT', lines, ctx.notary.name, { ...ink, color: INK });
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
    signature: await pdf.embedFont(FONTS.signature, { subset: true }),
    seal: await pdf.embedPng(ctx.sealPng),
  };
  stampFields(pdf, ctx, ink);
  await stampMarks(pdf, ctx, ink);
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
