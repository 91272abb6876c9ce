import { isUuid } from '../ids';
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { Sequelize, Transaction } from 'sequelize';
import { HttpError } from '../http/errors';
import { generateOpaqueToken, sha256 } from '../auth/keys';
import { renderSeal } from './seal';
import { invalidId, TEAM_MESSAGES } from './teamErrors';
import type { InviteInput } from './teamSchemas';

export interface MemberRow {
  id: string;
  account_id: string;
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  business_role: string | null;
  state: string | null;
  county: string | null;
  commission_number: string | null;
  commission_expires_on: string | null;
  onboarding_status: string;
  vendor_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const MEMBER_COLUMNS = `m.id, m.account_id, m.user_id, u.email, u.first_name, u.last_name, m.business_role, u.state, u.county,
  u.commission_number, to_char(u.commission_expires_on, 'YYYY-MM-DD') AS commission_expires_on, u.onboarding_status,
  m.vendor_user_id, m.created_at, greatest(m.updated_at, u.updated_at) AS updated_at`;

const iso = (d: Date) => new Date(d).toISOString();

/** Spec 2.8 / 4.7 fields of a team member. */
export function presentMember(row: MemberRow) {
  return {
    id: row.id,
    email: row.email,
    name: `${row.first_name} ${row.last_name}`,
    business_role: row.business_role,
    onboarding_status: row.onboarding_status,
    state: row.state,
    county: row.county,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Spec 4.5 `user_data`: the member fields plus the invite-only ones. */
export function presentInvitedMember(row: MemberRow) {
  return {
    ...presentMember(row),
    first_name: row.first_name,
    last_name: row.last_name,
    commission_number: row.commission_number,
    commission_expires_on: row.commission_expires_on
      ? new Date(`${row.commission_expires_on}T00:00:00Z`).toISOString()
      : null,
    vendor_user_id: row.vendor_user_id,
  };
}

/** `%` and `_` are literal in the e-mail filter (contract §4). */
function likePattern(fragment: string): string {
  return `%${fragment.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface LoginLinkSettings {
  frontUrl: string;
  lifetimeSeconds: number;
}

/** A vendor's team (spec 3, 4.5–4.9): every operation is scoped to the vendor's own linked members. */
export class TeamService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly loginLinks: LoginLinkSettings,
  ) {}

  private async member(
    accountId: string,
    memberId: string,
    transaction?: Transaction,
  ): Promise<MemberRow | undefined> {
    const [rows] = (await this.sequelize.query(
      `SELECT ${MEMBER_COLUMNS} FROM account_members m JOIN users u ON u.id = m.user_id
        WHERE m.id = $1 AND m.account_id = $2 AND m.deleted_at IS NULL`,
      { bind: [memberId, accountId], transaction },
    )) as [MemberRow[], unknown];
    return rows[0];
  }

  async invite(
    accountId: string,
    input: InviteInput,
  ): Promise<{ status: 200 | 201; body: Record<string, unknown> }> {
    const [accounts] = (await this.sequelize.query('SELECT auto_onboarding FROM accounts WHERE id = $1', {
      bind: [accountId],
    })) as [Array<{ auto_onboarding: boolean }>, unknown];
    const autoOnboarding = accounts[0].auto_onboarding && input.business_role === 'notary';
    if (
      autoOnboarding &&
      !(input.state && input.county && input.commission_number && input.commission_expires_on)
    ) {
      throw new HttpError(400, TEAM_MESSAGES.onboardingFields);
    }
    const passwordHash =
      input.password ?? (await bcrypt.hash(crypto.randomBytes(24).toString('base64url'), 10));

    return this.sequelize.transaction(async (transaction) => {
      // Serialise invites of the same e-mail, so two at once cannot create the user twice.
      await this.sequelize.query('SELECT pg_advisory_xact_lock(hashtext(lower($1)))', {
        bind: [input.email],
        transaction,
      });
      const [users] = (await this.sequelize.query('SELECT id FROM users WHERE lower(email) = lower($1)', {
        bind: [input.email],
        transaction,
      })) as [Array<{ id: string }>, unknown];
      let userId = users[0]?.id;
      if (userId) {
        const [links] = (await this.sequelize.query(
          'SELECT id FROM account_members WHERE account_id = $1 AND user_id = $2 AND deleted_at IS NULL',
          { bind: [accountId, userId], transaction },
        )) as [Array<{ id: string }>, unknown];
        if (links.length)
          return { status: 200, body: { success: true, already_linked: true, team_member_id: links[0].id } };
      } else {
        const [created] = (await this.sequelize.query(
          `INSERT INTO users (email, first_name, last_name, password_hash, is_child_account) VALUES ($1, $2, $3, $4, true) RETURNING id`,
          { bind: [input.email, input.first_name, input.last_name, passwordHash], transaction },
        )) as [Array<{ id: string }>, unknown];
        userId = created[0].id;
      }
      await this.sequelize.query(
        `UPDATE users SET membership_type = 'pro', vendor_account_id = $2, business_role = $3,
                state = coalesce($4, state), county = coalesce($5, county), commission_number = coalesce($6, commission_number),
                commission_expires_on = coalesce($7::date, commission_expires_on),
                onboarding_status = CASE WHEN $8 THEN 'complete' ELSE onboarding_status END, updated_at = now()
          WHERE id = $1`,
        {
          bind: [
            userId,
            accountId,
            input.business_role,
            input.state ?? null,
            input.county ?? null,
            input.commission_number ?? null,
            input.commission_expires_on ?? null,
            autoOnboarding,
          ],
          transaction,
        },
      );
      const [links] = (await this.sequelize.query(
        `INSERT INTO account_members (account_id, user_id, business_role, vendor_user_id, role_options, optional_metadata)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        {
          bind: [
            accountId,
            userId,
            input.business_role,
            input.vendor_user_id ?? null,
            input.role_options ? JSON.stringify(input.role_options) : null,
            input.optional_metadata ? JSON.stringify(input.optional_metadata) : null,
          ],
          transaction,
        },
      )) as [Array<{ id: string }>, unknown];
      const member = (await this.member(accountId, links[0].id, transaction))!;
      if (autoOnboarding) await this.generateSeal(member, transaction);
      return { status: 201, body: { success: true, user_data: presentInvitedMember(member) } };
    });
  }

  private async generateSeal(member: MemberRow, transaction: Transaction) {
    const seal = renderSeal({
      stateCode: member.state!,
      notaryName: `${member.first_name} ${member.last_name}`,
      commissionNumber: member.commission_number!,
      commissionExpiresOn: member.commission_expires_on!,
    });
    await this.sequelize.query(
      'INSERT INTO notary_seals (user_id, state, svg, png) VALUES ($1, $2, $3, $4)',
      {
        bind: [member.user_id, member.state, seal.svg, seal.png],
        transaction,
      },
    );
  }

  async list(accountId: string, filters: { page: number; limit: number; role?: string; email?: string }) {
    const [rows] = (await this.sequelize.query(
      `SELECT ${MEMBER_COLUMNS}, count(*) OVER () AS total
         FROM account_members m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = $1 AND m.deleted_at IS NULL
          AND ($2::text IS NULL OR m.business_role = $2)
          AND ($3::text IS NULL OR lower(u.email) LIKE $3)
        ORDER BY m.created_at DESC, m.id
        LIMIT $4 OFFSET $5`,
      {
        bind: [
          accountId,
          filters.role ?? null,
          filters.email ? likePattern(filters.email) : null,
          filters.limit,
          (filters.page - 1) * filters.limit,
        ],
      },
    )) as [Array<MemberRow & { total: string }>, unknown];
    const total = rows.length ? Number(rows[0].total) : await this.count(accountId, filters);
    return {
      data: rows.map(presentMember),
      pagination: {
        page: filters.page,
        limit: filters.limit,
        total_items: total,
        total_pages: Math.ceil(total / filters.limit),
      },
    };
  }

  private async count(accountId: string, filters: { role?: string; email?: string }): Promise<number> {
    const [rows] = (await this.sequelize.query(
      `SELECT count(*)::int AS n FROM account_members m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = $1 AND m.deleted_at IS NULL AND ($2::text IS NULL OR m.business_role = $2)
          AND ($3::text IS NULL OR lower(u.email) LIKE $3)`,
      { bind: [accountId, filters.role ?? null, filters.email ? likePattern(filters.email) : null] },
    )) as [Array<{ n: number }>, unknown];
    return rows[0].n;
  }

  async get(accountId: string, memberId: string) {
    if (!isUuid(memberId)) throw invalidId('team_member_id');
    const member = await this.member(accountId, memberId);
    if (!member) throw new HttpError(404, TEAM_MESSAGES.memberNotFound);
    return presentMember(member);
  }

  async seal(accountId: string, memberId: string): Promise<{ svg: string; png: Buffer }> {
    if (!isUuid(memberId)) throw invalidId('team_member_id');
    const [rows] = (await this.sequelize.query(
      `SELECT s.svg, s.png FROM account_members m JOIN notary_seals s ON s.user_id = m.user_id
        WHERE m.id = $1 AND m.account_id = $2 AND m.deleted_at IS NULL ORDER BY s.created_at DESC LIMIT 1`,
      { bind: [memberId, accountId] },
    )) as [Array<{ svg: string; png: Buffer }>, unknown];
    if (!rows.length) throw new HttpError(404, 'Seal not found');
    return rows[0];
  }

  /**
   * Spec 3: unlinking, all in one transaction. The link is soft-deleted; the user drops to a free
   * account with no vendor, role or role options; a child notary account (created by a vendor invite)
   * also gets a new e-mail so the address is free again. The user and their data are kept.
   */
  async unlink(accountId: string, memberId: string) {
    if (!isUuid(memberId)) throw invalidId('team_member_id');
    return this.sequelize.transaction(async (transaction) => {
      const [admins] = await this.sequelize.query(
        `SELECT 1 FROM account_members WHERE account_id = $1 AND business_role = 'admin' AND deleted_at IS NULL LIMIT 1`,
        { bind: [accountId], transaction },
      );
      if (!admins.length) throw new HttpError(403, TEAM_MESSAGES.vendorAdminNotFound);
      const [links] = (await this.sequelize.query(
        `SELECT m.id, m.user_id, m.business_role, u.email, u.is_child_account FROM account_members m JOIN users u ON u.id = m.user_id
          WHERE m.id = $1 AND m.account_id = $2 AND m.deleted_at IS NULL FOR UPDATE OF m, u`,
        { bind: [memberId, accountId], transaction },
      )) as [
        Array<{
          id: string;
          user_id: string;
          business_role: string | null;
          email: string;
          is_child_account: boolean;
        }>,
        unknown,
      ];
      const link = links[0];
      if (!link) throw new HttpError(404, TEAM_MESSAGES.linkNotFound);
      await this.sequelize.query(
        `UPDATE account_members SET deleted_at = now(), business_role = NULL, role_options = NULL, updated_at = now() WHERE id = $1`,
        { bind: [link.id], transaction },
      );
      const [domainPart, ...rest] = link.email.split('@').reverse();
      const local = rest.reverse().join('@');
      const renamed =
        link.is_child_account && link.business_role === 'notary'
          ? `${local}+unlinked-${crypto.randomUUID().replace(/-/g, '')}@${domainPart}`
          : link.email;
      await this.sequelize.query(
        `UPDATE users SET membership_type = 'free', vendor_account_id = NULL, business_role = NULL, email = $2, updated_at = now()
          WHERE id = $1`,
        { bind: [link.user_id, renamed], transaction },
      );
      await this.sequelize.query('DELETE FROM login_links WHERE member_id = $1', {
        bind: [link.id],
        transaction,
      });
      return { success: true, message: 'Team member unlinked' };
    });
  }

  /** Spec 4.9: a reusable 12-hour link; the key is shown in the link only, stored as a hash. */
  async createLoginLink(accountId: string, email: string) {
    const [members] = (await this.sequelize.query(
      `SELECT m.id FROM account_members m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = $1 AND m.deleted_at IS NULL AND lower(u.email) = lower($2)`,
      { bind: [accountId, email] },
    )) as [Array<{ id: string }>, unknown];
    if (!members.length) throw new HttpError(404, TEAM_MESSAGES.userNotFound);
    const { token: key, hash } = generateOpaqueToken();
    const [links] = (await this.sequelize.query(
      `INSERT INTO login_links (account_id, member_id, key_hash, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING id`,
      { bind: [accountId, members[0].id, hash, this.loginLinks.lifetimeSeconds] },
    )) as [Array<{ id: string }>, unknown];
    const url = new URL(`${this.loginLinks.frontUrl}/auto/${encodeURIComponent(links[0].id)}`);
    url.searchParams.set('key', key);
    return { success: true, login_link: url.toString(), expires_in: this.loginLinks.lifetimeSeconds };
  }

  /**
   * The member a login link stands for, or undefined for an unknown link, a wrong key or an expired
   * link; an expired link is deleted on the spot.
   */
  async memberForLoginLink(linkId: string, key: string): Promise<MemberRow | undefined> {
    if (!isUuid(linkId)) return undefined;
    const [links] = (await this.sequelize.query(
      'SELECT account_id, member_id, key_hash, expires_at <= now() AS expired FROM login_links WHERE id = $1',
      { bind: [linkId] },
    )) as [Array<{ account_id: string; member_id: string; key_hash: Buffer; expired: boolean }>, unknown];
    const link = links[0];
    if (!link) return undefined;
    if (link.expired) {
      await this.sequelize.query('DELETE FROM login_links WHERE id = $1', { bind: [linkId] });
      return undefined;
    }
    const candidate = sha256(key);
    if (candidate.length !== link.key_hash.length || !crypto.timingSafeEqual(candidate, link.key_hash))
      return undefined;
    return this.member(link.account_id, link.member_id);
  }
}
