import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { launchMediaBrowser } from '../support/browser';
import { request } from '../support/http';
import { testEnvironment } from '../support/environment';
import { startSecondApp, type SecondApp } from '../support/secondApp';
import { tokenOf } from '../support/sessions';
import { fetchJson } from '../team/helpers';
import { loadConfig } from '../../src/config';
import { ConfigError } from '../../src/configError';
import {
  liveTeamSession,
  notaryAction,
  notaryInRoom,
  receivingMedia,
  roomStats,
  signerPage,
} from './helpers';
import { startTurnServer, type TurnServer } from './turnServer';

const SECRET = crypto.randomBytes(24).toString('hex');
const TTL_SECONDS = 2 * 3600;

describe('TURN for restrictive networks: a credential per pass, a relay-only live room (issue 71)', function () {
  this.timeout(180_000);
  let turn: TurnServer;
  let relayOnly: SecondApp;
  let browser: Browser;

  before(async () => {
    turn = await startTurnServer(SECRET);
    const { media } = testEnvironment().config;
    relayOnly = await startSecondApp({
      media: {
        ...media,
        turn: {
          urls: [`turn:127.0.0.1:${turn.port}?transport=udp`, `turn:127.0.0.1:${turn.port}?transport=tcp`],
          secret: SECRET,
          ttlSeconds: TTL_SECONDS,
        },
        iceTransportPolicy: 'relay',
      },
    });
    browser = await launchMediaBrowser();
  });
  after(async () => {
    await browser?.close();
    await relayOnly?.close();
    await turn?.stop();
  });

  it('a static TURN credential in MEDIA_ICE_SERVERS is refused at start: every page would carry it', () => {
    const env = {
      ...process.env,
      MEDIA_ICE_SERVERS: '[{"urls":"turn:t.example.com","username":"u","credential":"c"}]',
    };
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && /must not carry a credential/.test(err.message),
    );
    assert.throws(() => loadConfig({ ...process.env, TURN_URLS: 'turn:t.example.com' }), /set together/);
    assert.throws(
      () => loadConfig({ ...process.env, MEDIA_ICE_TRANSPORT_POLICY: 'relay' }),
      /needs TURN_URLS/,
    );
  });

  it('each pass carries its own short-lived TURN credential, and the act runs through the relay alone', async () => {
    const live = await liveTeamSession();
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const before = Math.floor(Date.now() / 1000);
    const pass = await fetchJson(`${relayOnly.url}/sign/${tokenOf(live.signingUrl)}/media`, {
      method: 'POST',
    });
    assert.equal(pass.status, 200, pass.text);
    assert.equal(pass.body.ice_transport_policy, 'relay');
    const server = pass.body.ice_servers.at(-1);
    assert.deepEqual(server.urls, [
      `turn:127.0.0.1:${turn.port}?transport=udp`,
      `turn:127.0.0.1:${turn.port}?transport=tcp`,
    ]);
    const [expiry, who] = server.username.split(':');
    assert.equal(who, `${live.id}.signer-0`);
    assert.ok(
      Number(expiry) >= before + TTL_SECONDS && Number(expiry) <= before + TTL_SECONDS + 60,
      server.username,
    );
    assert.equal(
      server.credential,
      crypto.createHmac('sha1', SECRET).update(server.username).digest('base64'),
    );
    const plain = await request(`/sign/${tokenOf(live.signingUrl)}/media`, { method: 'POST' });
    assert.ok(
      plain.body.ice_servers.every((s: { credential?: string }) => s.credential === undefined),
      'no TURN credential where no TURN is set',
    );

    const signer = await signerPage(browser, live.signingUrl, relayOnly.url);
    const notary = await notaryInRoom(browser, live.notaryToken, live.id, 'Nora Notary', relayOnly.url);
    try {
      for (const { page } of [signer, notary]) {
        await receivingMedia(page, 1, 60_000);
        assert.deepEqual((await roomStats(page)).candidateTypes, ['relay'], 'every connection through TURN');
      }
      const log = turn.log();
      for (const identity of ['signer-0', 'notary'])
        assert.match(log, new RegExp(`\\d+:${live.id}\\.${identity}`), `coturn allocated for ${identity}`);
    } finally {
      await signer.context.close();
      await notary.context.close();
      await notaryAction(live.notaryToken, live.id, 'cancel', { reason: 'test over' });
    }
  });
});
