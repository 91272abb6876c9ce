import assert from 'node:assert/strict';
import { ParseSpeeds, PDFDocument } from 'pdf-lib';
import { plainPdfPageCount } from '../../src/documents/pdfStructure';
import { assemblePdf, handMadePdf, incrementallyUpdatedPdf, pdfLibPdf } from '../support/pdfShapes';
import { createTestAccount } from '../support/accounts';
import { annotation, b64 } from '../support/documents';
import { createSession, sessionBody } from '../support/sessions';
import { assertCreateFailure, assertPass } from '../sessions/helpers';

/** What the PDF will be notarized through: pdf-lib's own load, or why it fails. */
async function pdfLibPageCount(bytes: Uint8Array): Promise<number | string> {
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    return pdf.getPageCount();
  } catch (err) {
    return `pdf-lib fails: ${(err as Error).name}`;
  }
}

/** pdf-lib reports the objects it recovers from on the console; the mutants below make thousands. */
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const { warn, error } = console;
  console.warn = console.error = () => undefined;
  try {
    return await work();
  } finally {
    Object.assign(console, { warn, error });
  }
}

const PAGE_TREE = (kids: string, count: number) => `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`;
const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const LEAF = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';

describe('the page count of an upload, read from its page tree (issue 14)', function () {
  this.timeout(120_000);
  let shapes: [string, Buffer][];
  before(async () => {
    shapes = [
      ['a hand-made PDF: two-level page tree, comments, an indirect length, escaped names', handMadePdf(7)],
      [
        'an incrementally updated PDF: an object written twice, two cross-reference sections',
        incrementallyUpdatedPdf(4),
      ],
      ['pdf-lib with a cross-reference table', await pdfLibPdf(12, false)],
      ['pdf-lib with object and cross-reference streams', await pdfLibPdf(5, true)],
      ['a one-page PDF with object streams', await pdfLibPdf(1, true)],
    ];
  });

  it('gives the count pdf-lib gives for the shapes producers write, without pdf-lib loading them', async () => {
    for (const [shape, bytes] of shapes) {
      const plain = await plainPdfPageCount(bytes);
      assert.notEqual(plain, undefined, `${shape}: read from its page tree`);
      assert.equal(plain, await pdfLibPageCount(bytes), shape);
    }
    assert.equal(
      await plainPdfPageCount(incrementallyUpdatedPdf(4)),
      5,
      'the page the update appended counts',
    );
  });

  it('answers only where pdf-lib reads the file the same way: 3,000 damaged copies never disagree', async () => {
    // A fixed seed: a failure names a mutant that can be made again.
    let seed = 14;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const TOKENS = Buffer.from(' \n()<>[]/%R0123456789#');
    const damaged = (bytes: Buffer) => {
      const copy = Buffer.from(bytes);
      const at = random(copy.length);
      switch (random(5)) {
        case 0:
          copy[at] = random(256);
          return copy;
        case 1:
          copy[at] = TOKENS[random(TOKENS.length)];
          return copy;
        case 2:
          return Buffer.concat([copy.subarray(0, at), copy.subarray(at + 1 + random(40))]);
        case 3:
          return Buffer.concat([
            copy.subarray(0, at),
            copy.subarray(at - random(at + 1), at),
            copy.subarray(at),
          ]);
        default:
          return copy.subarray(0, at);
      }
    };
    let answered = 0;
    await quietly(async () => {
      for (const [shape, bytes] of shapes) {
        for (let i = 0; i < 600; i++) {
          const mutant = damaged(bytes);
          const plain = await plainPdfPageCount(mutant);
          if (plain === undefined) continue;
          answered += 1;
          assert.equal(plain, await pdfLibPageCount(mutant), `${shape}, mutant ${i} (seed 14)`);
        }
      }
    });
    // Most damage that leaves a file readable the same way is in data pdf-lib does not interpret.
    assert.ok(answered > 600, `${answered} of 3,000 damaged copies were still read from their page tree`);
  });

  it('leaves to pdf-lib every file it would have to recover, and every encrypted one', async () => {
    const recovered: [string, Buffer][] = [
      [
        'bytes between objects',
        assemblePdf([CATALOG, PAGE_TREE('3 0 R', 1), LEAF], { between: '\ngarbage\n' }),
      ],
      [
        'a string that never closes, swallowing the objects after it',
        assemblePdf([CATALOG, PAGE_TREE('3 0 R', 1), '<< /Type /Page /Parent 2 0 R /T (open >>', LEAF]),
      ],
      [
        'an object without endobj',
        Buffer.from(
          assemblePdf([CATALOG, PAGE_TREE('3 0 R', 1), LEAF])
            .toString('latin1')
            .replace('endobj', ''),
          'latin1',
        ),
      ],
      [
        'a stream whose data holds `stream`',
        assemblePdf([
          CATALOG,
          PAGE_TREE('3 0 R', 1),
          LEAF,
          '<< /Length 4 0 R >>\nstream\na stream inside\nendstream',
        ]),
      ],
      ['a kid that is not there', assemblePdf([CATALOG, PAGE_TREE('3 0 R 9 0 R', 2), LEAF])],
      ['a page tree that loops', assemblePdf([CATALOG, PAGE_TREE('3 0 R 2 0 R', 2), LEAF])],
      ['a kid without a type', assemblePdf([CATALOG, PAGE_TREE('3 0 R', 1), '<< /Parent 2 0 R >>'])],
      [
        'a catalog found only by searching',
        assemblePdf([CATALOG, PAGE_TREE('3 0 R', 1), LEAF], { trailer: '' }),
      ],
      [
        'a header after other bytes',
        Buffer.concat([Buffer.from('junk\n'), assemblePdf([CATALOG, PAGE_TREE('3 0 R', 1), LEAF])]),
      ],
      [
        'an encrypted file',
        assemblePdf([CATALOG, PAGE_TREE('3 0 R', 1), LEAF, '<< /Filter /Standard /V 1 /R 2 >>'], {
          trailer: '/Root 1 0 R /Encrypt 4 0 R',
        }),
      ],
    ];
    await quietly(async () => {
      for (const [shape, bytes] of recovered) assert.equal(await plainPdfPageCount(bytes), undefined, shape);
    });
  });
});

describe('an upload’s pages as the API counts them (issue 14)', function () {
  this.timeout(120_000);
  let apiKey: string;
  before(async () => {
    apiKey = (await createTestAccount()).api_key;
  });

  const withAnnotationOn = async (bytes: Buffer, pageNum: number) =>
    createSession(
      apiKey,
      await sessionBody({
        session_documents: [
          { name: 'deed.pdf', base64Doc: b64(bytes), annotations: [annotation({ pageNum })] },
        ],
      }),
    );

  it('a field may go on the last page of each shape, and not past it', async () => {
    const shapes: [string, Buffer, number][] = [
      ['object streams', await pdfLibPdf(3, true), 3],
      ['an incremental update', incrementallyUpdatedPdf(2), 3],
      ['a two-level page tree', handMadePdf(5), 5],
    ];
    for (const [shape, bytes, pages] of shapes) {
      assertPass(await withAnnotationOn(bytes, pages));
      assertCreateFailure(
        await withAnnotationOn(bytes, pages + 1),
        `session_documents[0].annotations[0].pageNum must be within the document's ${pages} pages`,
        shape,
      );
    }
  });

  it('a PDF without a page tree is refused as unreadable, and an encrypted one as encrypted', async () => {
    const refused = async (bytes: Buffer, message: string) =>
      assertCreateFailure(
        await createSession(
          apiKey,
          await sessionBody({ session_documents: [{ name: 'deed.pdf', base64Doc: b64(bytes) }] }),
        ),
        message,
      );
    await refused(
      assemblePdf(['<< /Producer (no catalog) >>'], { trailer: '' }),
      'session_documents[0].base64Doc is not a readable PDF',
    );
    await refused(
      assemblePdf([CATALOG, PAGE_TREE('3 0 R', 1), LEAF, '<< /Filter /Standard /V 1 /R 2 >>'], {
        trailer: '/Root 1 0 R /Encrypt 4 0 R',
      }),
      'session_documents[0].base64Doc is an encrypted PDF',
    );
  });
});
