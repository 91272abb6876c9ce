import { signInIsOpenSql } from './consoleSignIns';
import type { Sequelize } from 'sequelize';
import { rowExists } from '../db/query';
import { keyById, keyByPrefix, type ApiKey, type KeyKind } from './keyStore';
import { parseKey, secretMatches, sha256 } from './keys';
import type { NetworkPersonClaims, TeamMemberClaims, TokenService } from './tokens';
import { stillInNetworkSql } from './people';

/** A signing link's token: 32 random bytes, base64url. */
export const SIGNING_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The credential of an Authorization header: `Bearer <credential>` or, as one spec sample sends, bare. */
export function credentialOf(header: string | undefined): string | null {
  const value = header?.trim();
  if (!value) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (match) return match[1];
  return /\s/.test(value) ? null : value;
}

/**
 * Resolves a credential to the live key it stands for: the key itself, or an access token minted from
 * it (accepted wherever that key is, and dead once the key is rotated).
 */
export class Authenticator {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly tokens: TokenService,
  ) {}

  async keyFor(credential: string, kind: KeyKind): Promise<ApiKey | null> {
    const parsed = parseKey(credential);
    if (parsed) {
      if (parsed.kind !== kind) return null;
      const key = await keyByPrefix(this.sequelize, parsed.prefix);
      return key && !key.revokedAt && key.kind === kind && secretMatches(parsed.secret, key.secretHash)
        ? key
        : null;
    }
    if (!JWT_SHAPE.test(credential)) return null;
    const claims = await this.tokens.verifyAccessToken(credential);
    if (!claims || claims.kind !== kind) return null;
    const key = await keyById(this.sequelize, claims.keyId);
    return key && !key.revokedAt && key.accountId === claims.accountId ? key : null;
  }

  /** A team member's token whose link to the vendor still stands (unlinking ends its access at once). */
  async teamMemberFor(credential: string): Promise<TeamMemberClaims | null> {
    if (!JWT_SHAPE.test(credential)) return null;
    const claims = await this.tokens.verifyTeamMemberToken(credential);
    if (!claims) return null;
    const linked = await rowExists(
      this.sequelize,
      `SELECT 1 FROM account_members m
        WHERE m.id = $1 AND m.account_id = $2 AND m.deleted_at IS NULL AND m.business_role = $3
          AND ${signInIsOpenSql('$4::uuid', 'm.id')}`,
      { bind: [claims.memberId, claims.accountId, claims.role, claims.signInId] },
    );
    return linked ? claims : null;
  }

  /** A network notary's or witness's token, while they are still in the network. */
  async networkPersonFor(credential: string): Promise<NetworkPersonClaims | null> {
    if (!JWT_SHAPE.test(credential)) return null;
    const claims = await this.tokens.verifyNetworkToken(credential);
    if (!claims) return null;
    const table = claims.role === 'notary' ? 'network_notaries' : 'network_witnesses';
    return (await rowExists(
      this.sequelize,
      `SELECT 1 FROM ${table} t
        WHERE t.id = $1 AND ${stillInNetworkSql('t')} AND ${signInIsOpenSql('$2::uuid', 't.id')}`,
      { bind: [claims.personId, claims.signInId] },
    ))
      ? claims
      : null;
  }

  /** Whether a signing link's token belongs to a participant (whether or not their session has ended). */
  async signingLinkExists(token: string): Promise<boolean> {
    return (
      SIGNING_TOKEN_SHAPE.test(token) &&
      rowExists(this.sequelize, 'SELECT 1 FROM participants WHERE token_hash = $1', { bind: [sha256(token)] })
    );
  }

  /** A key of any kind, given as the key itself (the token exchange accepts no tokens). */
  async anyKey(credential: string): Promise<ApiKey | null> {
    const parsed = parseKey(credential);
    return parsed ? this.keyFor(credential, parsed.kind) : null;
  }
}
