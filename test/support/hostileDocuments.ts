import crypto from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { strToU8 } from 'fflate';
import { docxBytes } from './documents';

/** Documents shaped to cost the service as much as possible (issue 10); the tests and `npm run probe:abuse` send them. */

/** A PNG whose header says `width` × `height`: enough for anything that reads the header first. */
export function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A baseline JPEG frame header of `width` × `height`. */
export function jpegHeader(width: number, height: number): Buffer {
  const sof = Buffer.from([
    0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
  ]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}

/**
 * Zlib data that inflates to at least `inflated` zero bytes from as few bytes as Flate allows, which
 * zlib's own compressor does not reach: one literal, then copies of 258 bytes each coded in two bits
 * (a one-bit length code and a one-bit distance code; RFC 1951, 3.2.5-3.2.7).
 */
export function mostCompactFlate(inflated: number): Buffer {
  const copies = Math.ceil((inflated - 1) / 258);
  const out = Buffer.alloc(Math.ceil((2 * copies + 200) / 8) + 6);
  let bit = 16;
  // Numbers go in least significant bit first; Huffman codes most significant bit first.
  const number = (value: number, bits: number) => {
    for (let i = 0; i < bits; i++, bit++) if ((value >> i) & 1) out[bit >> 3] |= 1 << (bit & 7);
  };
  const code = (value: string) => {
    for (const b of value) number(Number(b), 1);
  };
  out[0] = 0x78;
  out[1] = 0x01;
  // One final block with its own codes: 286 literal/length codes and 1 distance code, their lengths
  // coded with three code-length symbols (in the RFC's order 16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1):
  // 18, a run of zeros, in one bit; 1 and 2, those lengths, in two.
  number(1, 1);
  number(2, 2);
  number(286 - 257, 5);
  number(0, 5);
  number(18 - 4, 4);
  for (const length of [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2]) number(length, 3);
  const [repeatZeros, one, two] = ['0', '10', '11'];
  // Literal 0: 2 bits; 1-255: none; end of block (256): 2 bits; 257-284: none; 285 (copy 258): 1 bit;
  // distance code 0 (distance 1): 1 bit.
  code(two);
  code(repeatZeros);
  number(138 - 11, 7);
  code(repeatZeros);
  number(117 - 11, 7);
  code(two);
  code(repeatZeros);
  number(28 - 11, 7);
  code(one);
  code(one);
  // Codes: 285 is 0, literal 0 is 10, end of block 11; distance 0 is 0.
  code('10');
  for (let i = 0; i < copies; i++) code('00');
  code('11');
  const end = Math.ceil(bit / 8);
  // Adler-32 of one zero byte after another: a stays 1, b adds 1 per byte.
  out.writeUInt32BE((((1 + 258 * copies) % 65521) * 65536 + 1) >>> 0, end);
  return out.subarray(0, end + 4);
}

/** A one-page PDF carrying a Flate stream that inflates to `inflated` bytes: `data`, else zlib's own. */
export function inflatingPdf(
  inflated: number,
  data: Uint8Array = zlib.deflateSync(Buffer.alloc(inflated), { level: 9 }),
): Buffer {
  return Buffer.concat([
    Buffer.from(
      '%PDF-1.7\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
        '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R>>endobj\n' +
        `4 0 obj<</Length ${data.length}/Filter/FlateDecode>>stream\n`,
    ),
    data,
    Buffer.from('\nendstream\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
  ]);
}

/**
 * A one-page PDF whose page names `names` fonts, each under a name no other document uses. Within every
 * limit, but each distinct name is one more entry in pdf-lib's process-wide name table, which nothing empties.
 * Unless `plain`, a stray line between two objects, which pdf-lib skips, makes the upload check load it
 * with pdf-lib itself (a plain file's page count is read without pdf-lib and leaves no name behind).
 */
export function manyNamesPdf(names: number, { plain = false } = {}): Buffer {
  const tag = crypto.randomBytes(6).toString('hex');
  const fonts = Array.from({ length: names }, (_, i) => `/F${tag}-${i} 4 0 R`).join('\n');
  return Buffer.from(
    '%PDF-1.7\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
      `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</Font<<${fonts}>>>>>>endobj\n` +
      (plain ? '' : 'stray bytes\n') +
      '4 0 obj<</Type/Font/Subtype/Type1/BaseFont/Times-Roman>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
}

/** A DOCX whose picture is linked, not embedded: `TargetMode="External"` to `url`. */
export function linkedImageDocx(url: string): Buffer {
  const document = strToU8(
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ' +
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
      'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body><w:p><w:r><w:drawing>' +
      '<wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="Picture 1"/>' +
      '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
      '<pic:nvPicPr><pic:cNvPr id="1" name="linked.png"/><pic:cNvPicPr/></pic:nvPicPr>' +
      '<pic:blipFill><a:blip r:link="rIdLinked"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>' +
      '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm>' +
      '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic>' +
      '</wp:inline></w:drawing></w:r></w:p></w:body></w:document>',
  );
  return docxBytes(document, {
    'word/_rels/document.xml.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rIdLinked" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${url}" TargetMode="External"/>` +
        '</Relationships>',
    ),
  });
}

/** A local listener that counts what reaches it. */
export async function listener() {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, requests, close: () => server.close() };
}
