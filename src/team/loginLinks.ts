import type { Sequelize } from 'sequelize';
import { isUuid } from '../ids';
import { notFound } from '../domain/errors';
import { generateOpaqueToken, secretMatches } from '../auth/keys';
import { execute, queryRows } from '../db/query';
import { findMember, type MemberRow } from './members';
import { TEAM_MESSAGES } from './teamErrors';

export interface LoginLinkSettings {
  frontUrl: string;
  lifetimeSeconds: number;
}

/** Spec 4.9: a reusable 12-hour link; the key is shown in the link only, stored as a hash. */
export async function createLoginLink(
  sequelize: Sequelize,
  settings: LoginLinkSettings,
  accountId: string,
  email: string,
) {
  const members = await queryRows<{ id: string }>(
    sequelize,
    `SELECT m.id FROM account_members m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = $1 AND m.deleted_at IS NULL AND lower(u.email) = lower($2)`,
    { bind: [accountId, email] },
  );
  if (!members.length) throw notFound(TEAM_MESSAGES.userNotFound);
  const { token: key, hash } = generateOpaqueToken();
  const links = await queryRows<{ id: string }>(
    sequelize,
    `INSERT INTO login_links (account_id, member_id, key_hash, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING id`,
    { bind: [accountId, members[0].id, hash, settings.lifetimeSeconds] },
  );
  const url = new URL(`${settings.frontUrl}/auto/${encodeURIComponent(links[0].id)}`);
  url.searchParams.set('key', key);
  return { success: true, login_link: url.toString(), expires_in: settings.lifetimeSeconds };
}

/**
 * The member a login link stands for, or undefined for an unknown link, a wrong key or an expired
 * link; an expired link is deleted on the spot.
 */
export async function memberForLoginLink(
  sequelize: Sequelize,
  linkId: string,
  key: string,
): Promise<MemberRow | undefined> {
  if (!isUuid(linkId)) return undefined;
  const links = await queryRows<{
    account_id: string;
    member_id: string;
    key_hash: Buffer;
    expired: boolean;
  }>(
    sequelize,
    'SELECT account_id, member_id, key_hash, expires_at <= now() AS expired FROM login_links WHERE id = $1',
    { bind: [linkId] },
  );
  const link = links[0];
  if (!link) return undefined;
  if (link.expired) {
    await execute(sequelize, 'DELETE FROM login_links WHERE id = $1', { bind: [linkId] });
    return undefined;
  }
  if (!secretMatches(key, link.key_hash)) return undefined;
  return findMember(sequelize, link.account_id, link.member_id);
}
