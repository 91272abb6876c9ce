import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import type { Browser } from 'playwright-core';
import { launchMediaBrowser } from '../support/browser';
import { request } from '../support/http';
import { eventually } from '../support/eventually';
import { admin } from '../support/adminCli';
import { photo } from '../support/identity';
import { testEnvironment } from '../support/environment';
import { action, joinSession, signer, teamNotarySession, tokenOf, waitForSession } from '../support/sessions';
import { consentAndAdopt } from '../support/signing';
import { decodePng, query } from '../team/helpers';
import { liveTeamSession, notaryAction, notaryInRoom, receivingMedia, signerPage } from '../media/helpers';
import { handlesPerConnection } from '../../src/media/mediaHolds';
import { loggablePath } from '../../src/http/middleware/accessLog';
import { DiskStore } from '../../src/objectStore/diskStore';

const DEEP = `${'['.repeat(32_000)}${']'.repeat(32_000)}`;
const TOO_DEEP = 'Request body nests deeper than 32 levels';

/** A media token for a live session's signer, once the notary has started. */
async function signerMediaToken(live: Awaited<ReturnType<typeof liveTeamSession>>): Promise<string> {
  const pass = await eventually(
    () => request(`/sign/${tokenOf(live.signingUrl)}/media`, { body: {} }),
    (r) => r.status === 200,
    'a room pass',
  );
  return pass.body.media_token as string;
}

/** Janus's HTTP API through the signaling proxy, as janus.js speaks it, with one media token. */
function janusAs(token: string) {
  const post = (body: object, at = '') =>
    request(`/media/janus${at}`, { body: { transaction: 't', token, ...body } });
  return {
    token,
    post,
    poll: (session: string) => request(`/media/janus/${session}?maxev=5&token=${encodeURIComponent(token)}`),
    async connect(): Promise<string> {
      const created = await post({ janus: 'create' });
      assert.equal(created.body.janus, 'success', created.text);
      return String(created.body.data.id);
    },
  };
}

/** Issue 67: the holes found from outside in the live room and the signing, each shown closed. */
describe('holes found from outside in the live room and the signing (issue 67)', function () {
  this.timeout(240_000);

  it('1. a deeply nested body is refused before anything walks it, on every route, with or without credentials', async () => {
    const live = await teamNotarySession();
    const routes: Array<[string, string | undefined]> = [
      ['/media/janus', undefined],
      ['/internal/media/events', undefined],
      ['/api/integrationsv2/sessions', live.account.api_key],
      [`/sign/${tokenOf(live.created.body.bn_signing_url)}/consent`, undefined],
    ];
    const answers = await Promise.all(routes.map(([route, auth]) => request(route, { auth, rawBody: DEEP })));
    for (const [i, res] of answers.entries()) {
      assert.equal(res.status, 400, `${routes[i][0]}: ${res.text}`);
      assert.equal(res.body.response_message, TOO_DEEP, routes[i][0]);
    }
    // 200 KB of nesting inside a valid-looking batch for the media server's events.
    const batch = `[{"type":64,"event":{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}}]`;
    const events = await request('/internal/media/events', { rawBody: batch });
    assert.equal(events.status, 400, events.text);
    assert.equal(events.body.response_message, TOO_DEEP);
    // Without a credential, a route that needs one answers 401 before reading the body.
    const anonymous = await request('/api/integrationsv2/sessions', { rawBody: DEEP });
    assert.equal(anonymous.status, 401);
  });

  describe('2 and 5. the live room’s media server is held per person, and a token acts on its own only', () => {
    let browser: Browser;
    before(async () => {
      browser = await launchMediaBrowser();
    });
    after(async () => browser?.close());

    it('a signer’s flood of connections and subscriptions stops at what the room needs; another session’s room is unaffected', async () => {
      const flooded = await liveTeamSession();
      assert.equal((await notaryAction(flooded.notaryToken, flooded.id, 'start')).status, 200);
      const notary = await notaryInRoom(browser, flooded.notaryToken, flooded.id);
      try {
        const janus = janusAs(await signerMediaToken(flooded));
        // Connections: a third one closes the oldest, which the proxy no longer knows.
        const first = await janus.connect();
        const second = await janus.connect();
        const third = await janus.connect();
        assert.equal((await janus.poll(first)).status, 404, 'the oldest connection was closed');
        assert.equal((await janus.post({ janus: 'keepalive' }, `/${second}`)).status, 200);

        // Handles: a publisher, then subscriptions to the notary's feed until the limit.
        const publisher = await janus.post(
          { janus: 'attach', plugin: 'janus.plugin.videoroom' },
          `/${third}`,
        );
        const joined = await janus.post(
          { janus: 'message', body: { request: 'join', ptype: 'publisher' } },
          `/${third}/${publisher.body.data.id}`,
        );
        assert.equal(joined.status, 200, joined.text);
        const feed = await eventually(
          async () => {
            const events = await janus.poll(third);
            const list = Array.isArray(events.body) ? events.body : [events.body];
            // In the joined event, or in an event of its own when the notary publishes after this join.
            const publishers = list.flatMap((e: any) => e.plugindata?.data?.publishers ?? []);
            return publishers.find((p: any) => String(p.id).startsWith('notary~'))?.id as string;
          },
          (id) => Boolean(id),
          'the notary’s feed in the joined event',
        );
        const limit = handlesPerConnection(2);
        const answers: number[] = [];
        for (let i = 0; i < 40; i++) {
          const handle = await janus.post({ janus: 'attach', plugin: 'janus.plugin.videoroom' }, `/${third}`);
          answers.push(handle.status);
          if (handle.status !== 200) continue;
          const subscribed = await janus.post(
            { janus: 'message', body: { request: 'join', ptype: 'subscriber', streams: [{ feed }] } },
            `/${third}/${handle.body.data.id}`,
          );
          assert.equal(subscribed.status, 200, subscribed.text);
        }
        assert.equal(answers.filter((s) => s === 200).length, limit - 1, answers.join(','));
        assert.deepEqual([...new Set(answers.slice(limit - 1))], [409]);
        const held = await query<{ n: number }>(
          `SELECT count(*)::int AS n FROM media_handles h JOIN media_connections c USING (janus_session)
            WHERE c.session_id = $1 AND c.identity = 'signer-0'`,
          [flooded.id],
        );
        assert.equal(held[0].n, limit);

        // Another account's act goes on as if nothing happened.
        const other = await liveTeamSession();
        assert.equal((await notaryAction(other.notaryToken, other.id, 'start')).status, 200);
        const otherSigner = await signerPage(browser, other.signingUrl);
        const otherNotary = await notaryInRoom(browser, other.notaryToken, other.id);
        try {
          await receivingMedia(otherSigner.page);
          await receivingMedia(otherNotary.page);
        } finally {
          await otherSigner.context.close();
          await otherNotary.context.close();
        }
      } finally {
        await notary.context.close();
      }
    });

    it('another session’s media token cannot poll, leave or destroy a connection; ids are not logged', async () => {
      const [a, b] = await Promise.all([liveTeamSession(), liveTeamSession()]);
      for (const live of [a, b])
        assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
      const mine = janusAs(await signerMediaToken(a));
      const theirs = janusAs(await signerMediaToken(b));
      const session = await mine.connect();
      const handle = await mine.post({ janus: 'attach', plugin: 'janus.plugin.videoroom' }, `/${session}`);
      const onHandle = `/${session}/${handle.body.data.id}`;
      assert.equal((await theirs.poll(session)).status, 404);
      assert.equal(
        (await theirs.post({ janus: 'message', body: { request: 'leave' } }, onHandle)).status,
        404,
      );
      assert.equal((await theirs.post({ janus: 'detach' }, onHandle)).status, 404);
      assert.equal((await theirs.post({ janus: 'destroy' }, `/${session}`)).status, 404);
      assert.equal((await mine.post({ janus: 'keepalive' }, `/${session}`)).status, 200, 'still alive');
      // The page unloads: janus.js ends its connection with navigator.sendBeacon, a text/plain body.
      const unloaded = await request(`/media/janus/${session}`, {
        rawBody: JSON.stringify({ janus: 'destroy', transaction: 't', token: mine.token }),
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
      });
      assert.equal(unloaded.status, 200, unloaded.text);
      assert.equal((await mine.poll(session)).status, 404, 'released at once');
      assert.equal(loggablePath(`/media/janus${onHandle}`), '/media/janus/:session/:handle');
      assert.equal(loggablePath(`/media/janus/${session}`), '/media/janus/:session');
    });

    it('8. `__proto__` as a videoroom request is refused (403), and a notary’s media token dies with their sign-out', async () => {
      const live = await liveTeamSession();
      assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
      const janus = janusAs(await signerMediaToken(live));
      const session = await janus.connect();
      const handle = await janus.post({ janus: 'attach', plugin: 'janus.plugin.videoroom' }, `/${session}`);
      for (const name of ['__proto__', 'constructor', 'toString']) {
        const refused = await janus.post(
          { janus: 'message', body: { request: name } },
          `/${session}/${handle.body.data.id}`,
        );
        assert.equal(refused.status, 403, `${name}: ${refused.text}`);
      }
      const pass = await request(`/api/integrationsv2/me/sessions/${live.id}/media`, {
        auth: live.notaryToken,
        body: {},
      });
      assert.equal(pass.status, 200, pass.text);
      const notaryJanus = janusAs(pass.body.media_token);
      await notaryJanus.connect();
      const out = await request('/api/integrationsv2/auth/console/sign_out', {
        auth: live.notaryToken,
        body: {},
      });
      assert.equal(out.status, 200, out.text);
      const after = await notaryJanus.post({ janus: 'create' });
      assert.equal(after.status, 401, 'the token of an ended sign-in enters nothing');
    });
  });

  it('3. same-device signing: the other signers’ own links neither consent, adopt nor sign', async () => {
    const { account, created, id } = await teamNotarySession({
      all_signers: [signer(0), signer(1)],
      session_configurations: { same_device_signing_mode: 'all' },
    });
    const host = created.body.signing_urls[0].bn_signing_url as string;
    const other = tokenOf(created.body.signing_urls[1].bn_signing_url as string);
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(host)).status, 200);
    assert.equal((await action(account.api_key, id, 'start')).status, 200);
    await consentAndAdopt(host, 'First0 Last0', 0);
    const view = (await request(`/sign/${tokenOf(host)}/signing`)).body;
    const attempts = [
      request(`/sign/${other}/signing`),
      request(`/sign/${other}/consent`, { body: { accepted: true } }),
      request(`/sign/${other}/adopted_signature`, {
        body: {
          signature: { method: 'typed', style: 'caveat', text: 'First1 Last1' },
          initials: { method: 'typed', style: 'caveat', text: 'FL' },
        },
      }),
      request(`/sign/${other}/signatures`, {
        body: { document_id: view.documents[0].id, place_id: 'default-signer-1' },
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      assert.equal(res.status, 409, res.text);
      assert.equal(
        res.body.response_message,
        "In same-device signing only the host joins; the other signers sign on the host's device",
      );
    }
    const [row] = await query('SELECT consented_at FROM participants WHERE session_id = $1 AND index = 1', [
      id,
    ]);
    assert.equal(row.consented_at, null);
  });

  describe('4. page images', () => {
    /** A session whose signer has joined, with `pdf` as its document; the link and the document's id. */
    async function joinedWith(pdf: Uint8Array) {
      const { account, created, id } = await teamNotarySession({
        session_documents: [{ name: 'odd.pdf', base64Doc: Buffer.from(pdf).toString('base64') }],
      });
      await waitForSession(account.api_key, id, (s) => s.status === 'ready');
      const link = created.body.bn_signing_url as string;
      assert.equal((await joinSession(link)).status, 200);
      const token = tokenOf(link);
      const view = await request(`/sign/${token}/signing`);
      assert.equal(view.status, 200, view.text);
      return { token, documentId: view.body.documents[0].id as string };
    }

    it('a page 4 pt wide and 1400 pt tall is drawn within 1000 × 2000 pixels', async () => {
      const pdf = await PDFDocument.create();
      pdf.addPage([4, 1400]);
      pdf.addPage([612, 792]);
      const { token, documentId } = await joinedWith(await pdf.save());
      for (const [page, width, height] of [
        [1, 6, 2000],
        [2, 1000, 1294],
      ]) {
        const res = await fetch(
          `${testEnvironment().apiUrl}/sign/${token}/documents/${documentId}/pages/${page}`,
        );
        assert.equal(res.status, 200);
        const png = decodePng(Buffer.from(await res.arrayBuffer()));
        assert.deepEqual([png.width, png.height], [width, height], `page ${page}`);
      }
    });

    it('one link renders at most 120 pages a minute; pages already made are not counted', async () => {
      const pdf = await PDFDocument.create();
      for (let i = 0; i < 125; i++) pdf.addPage([100, 100]);
      const { token, documentId } = await joinedWith(await pdf.save());
      const page = (n: number) =>
        fetch(`${testEnvironment().apiUrl}/sign/${token}/documents/${documentId}/pages/${n}`);
      const statuses: number[] = [];
      for (let n = 1; n <= 122; n++) statuses.push((await page(n)).status);
      assert.deepEqual([...new Set(statuses.slice(0, 120))], [200]);
      assert.deepEqual(statuses.slice(120), [429, 429]);
      assert.equal((await page(1)).status, 200, 'a page already made is served');
    });
  });

  it('7. a logo of more than 2000 × 2000 pixels is refused, whatever its file size; one that fits is stored re-encoded', async () => {
    const account = await admin(['create-account', '--name=Pixel Title', '--test-mode']);
    assert.equal(account.code, 0, account.stderr);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logo-'));
    const bomb = path.join(dir, 'bomb.png');
    fs.writeFileSync(bomb, oneBitPng(20_000, 20_000));
    assert.ok(fs.statSync(bomb).size < 200 * 1024, 'a small file');
    const refused = await admin(['set-branding', `--account=${account.json.account_id}`, `--logo=${bomb}`]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /20000 × 20000 pixels; at most 2000 × 2000/);

    const withText = path.join(dir, 'logo.png');
    fs.writeFileSync(withText, withTextChunk(photo(240, 80, 'PX'), 'Comment', '<script>alert(1)</script>'));
    const set = await admin(['set-branding', `--account=${account.json.account_id}`, `--logo=${withText}`]);
    assert.equal(set.code, 0, set.stderr);
    const [row] = await query<{ logo: Buffer; logo_type: string }>(
      'SELECT logo, logo_type FROM accounts WHERE id = $1',
      [account.json.account_id],
    );
    assert.equal(row.logo_type, 'image/png');
    assert.ok(!row.logo.includes('alert(1)'), 'only the pixels are kept');
    assert.deepEqual([decodePng(row.logo).width, decodePng(row.logo).height], [240, 80]);
  });

  it('8. typed marks refuse bidirectional controls; recordings on local disk are readable by the service alone', async () => {
    const { account, created, id } = await teamNotarySession();
    const link = created.body.bn_signing_url as string;
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(link)).status, 200);
    for (const text of ['Sam \u202eRengis', 'Sam \u2067Signer', 'Sam\u200fSigner']) {
      const res = await request(`/sign/${tokenOf(link)}/adopted_signature`, {
        body: {
          signature: { method: 'typed', style: 'caveat', text },
          initials: { method: 'typed', style: 'caveat', text: 'SS' },
        },
      });
      assert.equal(res.status, 400, res.text);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-'));
    const source = path.join(dir, 'in.webm');
    fs.writeFileSync(source, 'recording');
    await new DiskStore(path.join(dir, 'store')).putFile('recordings/a/b.webm', source);
    assert.equal(fs.statSync(path.join(dir, 'store', 'recordings', 'a', 'b.webm')).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.join(dir, 'store', 'recordings', 'a')).mode & 0o777, 0o700);
  });
});

/** A 1-bit greyscale PNG of `width` × `height` zero pixels: a few KB that decode to `width × height` bytes. */
function oneBitPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The PNG with a tEXt chunk after its header. */
function withTextChunk(png: Buffer, key: string, text: string): Buffer {
  const afterHeader = 8 + 25;
  return Buffer.concat([
    png.subarray(0, afterHeader),
    chunk('tEXt', Buffer.from(`${key}\0${text}`, 'latin1')),
    png.subarray(afterHeader),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}
