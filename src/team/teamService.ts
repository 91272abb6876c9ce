import { inTransaction } from '../db/transaction';
import { isUuid } from '../ids';
import crypto from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import { refused, notFound } from '../domain/errors';
import { requestCommissionChange } from './commissionChanges';
import { inviteMember } from './invitation';
import { queueConfirmationMail } from './confirmationMail';
import { invalidId, TEAM_MESSAGES } from './teamErrors';
import type { InviteInput, OnboardingInput } from './teamSchemas';
import { execute, queryRows, rowExists } from '../db/query';
import { pageOf } from '../db/pagination';
import { searchLookup } from './searchLookup';
import { TrigramFrequencies } from './trigramFrequencies';
import { createLoginLink, memberForLoginLink, type LoginLinkSettings } from './loginLinks';
import { findMember, MEMBER_COLUMNS, MEMBER_JOINS, presentMember, type MemberRow } from './members';

/** A collision-resistant e-mail for a released child account, so its address can be invited afresh. */
function withUnlinkedSuffix(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, at)}+unlinked-${crypto.randomUUID().replace(/-/g, '')}${email.slice(at)}`;
}

/** `%` and `_` are literal in the e-mail filter (contract §4). */
function likePattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A vendor's team (spec 3, 4.5–4.9): every operation is scoped to the vendor's own linked members. */
export class TeamService {
  private readonly trigramFrequencies: TrigramFrequencies;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly settings: LoginLinkSettings & {
      publicBaseUrl: string;
      commissionConfirmationSeconds: number;
    },
  ) {
    this.trigramFrequencies = new TrigramFrequencies(sequelize);
  }

  private member(accountId: string, memberId: string, transaction?: Transaction) {
    return findMember(this.sequelize, accountId, memberId, transaction);
  }

  /** Spec 4.5 (see invitation.ts). */
  invite(accountId: string, input: InviteInput) {
    return inviteMember(this.sequelize, accountId, input);
  }

  /**
   * A notary's own onboarding (or renewal), asked for with their team-member token. That token comes from a
   * login link the vendor minted, and the commission is the person's across vendors: the change waits for
   * the notary to confirm it from their own e-mail (the worker sends the confirmation).
   */
  async requestOnboarding(accountId: string, memberId: string, input: OnboardingInput) {
    return inTransaction(this.sequelize, async (transaction) => {
      const member = await this.member(accountId, memberId, transaction);
      if (!member) throw notFound(TEAM_MESSAGES.memberNotFound);
      if (member.business_role !== 'notary')
        throw refused('Only a notary member completes notary onboarding');
      const pending = await requestCommissionChange(
        this.sequelize,
        member,
        {
          firstName: input.first_name ?? member.first_name,
          lastName: input.last_name ?? member.last_name,
          state: input.state,
          county: input.county,
          commissionNumber: input.commission_number,
          commissionExpiresOn: input.commission_expires_on,
        },
        this.settings.commissionConfirmationSeconds,
        transaction,
      );
      const outboxId = await queueConfirmationMail(
        this.sequelize,
        this.settings.publicBaseUrl,
        pending,
        transaction,
      );
      return { pending, outboxId };
    });
  }

  async list(accountId: string, filters: { page: number; limit: number; role?: string; email?: string }) {
    const fragment = filters.email?.toLowerCase();
    const lookup = fragment && searchLookup(fragment, await this.trigramFrequencies.current());
    const { rows, pagination } = await pageOf<MemberRow>(
      this.sequelize,
      {
        columns: MEMBER_COLUMNS,
        // The index finds the lookup's matches; a lookup narrower than the fragment is then checked
        // against the whole fragment (searchLookup.ts).
        fromWhere: `FROM account_members m
          WHERE m.account_id = $1 AND m.deleted_at IS NULL
            AND ($2::text IS NULL OR m.business_role = $2)
            AND ($3::text IS NULL OR m.search_email LIKE $3)
            AND ($4::text IS NULL OR strpos(m.search_email, $4) > 0)`,
        orderBy: 'm.created_at DESC, m.id',
        decorate: { alias: 'm', joins: MEMBER_JOINS },
        count: lookup ? 'over' : 'beside',
        bind: [
          accountId,
          filters.role ?? null,
          lookup ? likePattern(lookup) : null,
          lookup && lookup !== fragment ? fragment : null,
        ],
      },
      filters,
    );
    return { data: rows.map(presentMember), pagination };
  }

  async get(accountId: string, memberId: string) {
    if (!isUuid(memberId)) throw invalidId('team_member_id');
    const member = await this.member(accountId, memberId);
    if (!member) throw notFound(TEAM_MESSAGES.memberNotFound);
    return presentMember(member);
  }

  async seal(accountId: string, memberId: string): Promise<{ svg: string; png: Buffer }> {
    if (!isUuid(memberId)) throw invalidId('team_member_id');
    const rows = await queryRows<{ svg: string; png: Buffer }>(
      this.sequelize,
      `SELECT s.svg, s.png FROM account_members m JOIN notary_seals s ON s.user_id = m.user_id
        WHERE m.id = $1 AND m.account_id = $2 AND m.deleted_at IS NULL ORDER BY s.created_at DESC LIMIT 1`,
      { bind: [memberId, accountId] },
    );
    if (!rows.length) throw notFound('Seal not found');
    return rows[0];
  }

  /**
   * Spec 3: unlinking, all in one transaction, for this vendor's link only. The link is soft-deleted with
   * its role and role options cleared, and its login links die. The person drops to a free account only
   * when no other vendor still links them: only then does a child notary account (created by a vendor
   * invite) get a new e-mail so the address is free again. The user, their commission and data are kept.
   */
  async unlink(accountId: string, memberId: string) {
    if (!isUuid(memberId)) throw invalidId('team_member_id');
    return inTransaction(this.sequelize, async (transaction) => {
      const hasAdmin = await rowExists(
        this.sequelize,
        `SELECT 1 FROM account_members WHERE account_id = $1 AND business_role = 'admin' AND deleted_at IS NULL LIMIT 1`,
        { bind: [accountId], transaction },
      );
      if (!hasAdmin) throw refused(TEAM_MESSAGES.vendorAdminNotFound);
      const links = await queryRows<{
        id: string;
        user_id: string;
        business_role: string | null;
        email: string;
        is_child_account: boolean;
      }>(
        this.sequelize,
        `SELECT m.id, m.user_id, m.business_role, u.email, u.is_child_account FROM account_members m JOIN users u ON u.id = m.user_id
          WHERE m.id = $1 AND m.account_id = $2 AND m.deleted_at IS NULL FOR UPDATE OF m, u`,
        { bind: [memberId, accountId], transaction },
      );
      const link = links[0];
      if (!link) throw notFound(TEAM_MESSAGES.linkNotFound);
      await execute(
        this.sequelize,
        `UPDATE account_members SET deleted_at = now(), business_role = NULL, role_options = NULL, updated_at = now() WHERE id = $1`,
        { bind: [link.id], transaction },
      );
      await execute(this.sequelize, 'DELETE FROM login_links WHERE member_id = $1', {
        bind: [link.id],
        transaction,
      });
      const linkedElsewhere = await rowExists(
        this.sequelize,
        'SELECT 1 FROM account_members WHERE user_id = $1 AND deleted_at IS NULL LIMIT 1',
        { bind: [link.user_id], transaction },
      );
      if (!linkedElsewhere && link.is_child_account && link.business_role === 'notary') {
        await execute(this.sequelize, 'UPDATE users SET email = $2, updated_at = now() WHERE id = $1', {
          bind: [link.user_id, withUnlinkedSuffix(link.email)],
          transaction,
        });
      }
      return { success: true, message: 'Team member unlinked' };
    });
  }

  /** Spec 4.9: a reusable 12-hour link; the key is shown in the link only, stored as a hash. */
  createLoginLink(accountId: string, email: string) {
    return createLoginLink(this.sequelize, this.settings, accountId, email);
  }

  /** The member a login link stands for, or undefined (unknown link, wrong key, expired). */
  memberForLoginLink(linkId: string, key: string): Promise<MemberRow | undefined> {
    return memberForLoginLink(this.sequelize, linkId, key);
  }
}
