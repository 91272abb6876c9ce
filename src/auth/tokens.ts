import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import type { Sequelize, Transaction } from 'sequelize';
import { inTransaction } from '../db/transaction';
import { execute, queryRows } from '../db/query';
import { keyById, type ApiKey, type KeyKind } from './keyStore';
import { generateOpaqueToken, sha256 } from './keys';
import { type Config } from '../config';
import { ConfigError } from '../configError';

const ISSUER = 'notarization-service';
const AUDIENCE = 'integrationsv2';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AccessClaims {
  accountId: string;
  kind: KeyKind;
  keyId: string;
}

export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

export class InvalidTokenError extends Error {}

/** A team member signed in through a login link (contract §4). */
export interface TeamMemberClaims {
  accountId: string;
  memberId: string;
  role: 'notary' | 'pretagger' | 'admin';
  /** The console sign-in the token belongs to (auth/consoleSignIns.ts). */
  signInId: string;
}

/** A notary or witness of the service's own network, signed in through their login link. */
export interface NetworkPersonClaims {
  personId: string;
  role: 'notary' | 'witness';
  signInId: string;
}

/**
 * The signing secret: JWT_SECRET in production; elsewhere one generated once under DATA_DIR, so
 * tokens survive restarts of a development server.
 */
export function resolveJwtSecret(config: Config): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  if (config.nodeEnv === 'production') throw new ConfigError('JWT_SECRET must be set in production');
  const file = path.join(config.dataDir, 'jwt-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}

export class TokenService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly secret: Uint8Array,
    private readonly accessTtlSeconds: number,
    private readonly refreshTtlSeconds: number,
    private readonly maxLiveRefreshTokensPerKey: number,
  ) {}

  /** A short-lived HS256 JWT of this service for `subject`, with the given claims. */
  private sign(subject: string, claims: JWTPayload): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subject)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime(`${this.accessTtlSeconds}s`)
      .sign(this.secret);
  }

  /** The payload of a valid, unexpired JWT of this service, or null. */
  private async verify(token: string): Promise<JWTPayload | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      return typeof payload.sub === 'string' ? payload : null;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }

  mintAccessToken(key: ApiKey): Promise<string> {
    return this.sign(key.accountId, { knd: key.kind, kid: key.id });
  }

  /** Claims of a key's access token, or null. The caller still checks the key is live. */
  async verifyAccessToken(token: string): Promise<AccessClaims | null> {
    const payload = await this.verify(token);
    if (!payload || (payload.knd !== 'api' && payload.knd !== 'vendor') || typeof payload.kid !== 'string')
      return null;
    return { accountId: payload.sub!, kind: payload.knd, keyId: payload.kid };
  }

  mintTeamMemberToken(claims: TeamMemberClaims): Promise<string> {
    return this.sign(claims.memberId, {
      knd: 'team_member',
      acc: claims.accountId,
      role: claims.role,
      sin: claims.signInId,
    });
  }

  /** Claims of a team member's token, or null; the caller still checks the member is linked. */
  async verifyTeamMemberToken(token: string): Promise<TeamMemberClaims | null> {
    const payload = await this.verify(token);
    const role = payload?.role;
    if (!payload || payload.knd !== 'team_member' || typeof payload.acc !== 'string') return null;
    if (role !== 'notary' && role !== 'pretagger' && role !== 'admin') return null;
    if (typeof payload.sin !== 'string' || !UUID.test(payload.sin)) return null;
    return { accountId: payload.acc, memberId: payload.sub!, role, signInId: payload.sin };
  }

  mintNetworkToken(claims: NetworkPersonClaims): Promise<string> {
    return this.sign(claims.personId, { knd: 'network', role: claims.role, sin: claims.signInId });
  }

  /** Claims of a network person's token, or null; the caller still checks they are in the network. */
  async verifyNetworkToken(token: string): Promise<NetworkPersonClaims | null> {
    const payload = await this.verify(token);
    const role = payload?.role;
    if (!payload || payload.knd !== 'network' || (role !== 'notary' && role !== 'witness')) return null;
    if (typeof payload.sin !== 'string' || !UUID.test(payload.sin)) return null;
    return { personId: payload.sub!, role, signInId: payload.sin };
  }

  get accessTokenTtlSeconds(): number {
    return this.accessTtlSeconds;
  }

  /** First pair of a new refresh-token family, for a key that was just authenticated. */
  async issuePair(key: ApiKey): Promise<TokenPair> {
    return inTransaction(this.sequelize, async (transaction) => {
      const { token, hash } = generateOpaqueToken();
      await this.storeRefreshToken(crypto.randomUUID(), key.id, hash, transaction);
      // A client that never uses its refresh tokens must not grow the table without end.
      await execute(
        this.sequelize,
        `UPDATE refresh_tokens SET revoked_at = now()
          WHERE id IN (SELECT id FROM refresh_tokens
                        WHERE api_key_id = $1 AND revoked_at IS NULL AND used_at IS NULL AND expires_at > now()
                        ORDER BY created_at DESC, id OFFSET $2)`,
        { bind: [key.id, this.maxLiveRefreshTokensPerKey], transaction },
      );
      return this.pair(key, token);
    });
  }

  /**
   * Spends a refresh token and issues the next one of its family. Presenting a spent token means it
   * leaked: the whole family is revoked, so the thief's and the owner's tokens both stop working.
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const outcome = await inTransaction(this.sequelize, async (transaction) => {
      const [current] = await queryRows<{
        id: string;
        familyId: string;
        apiKeyId: string;
        expiresAt: Date;
        usedAt: Date | null;
        revokedAt: Date | null;
      }>(
        this.sequelize,
        `SELECT id, family_id AS "familyId", api_key_id AS "apiKeyId", expires_at AS "expiresAt",
                used_at AS "usedAt", revoked_at AS "revokedAt"
           FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
        { bind: [sha256(refreshToken)], transaction },
      );
      if (!current || current.revokedAt) return { error: 'unknown or revoked refresh token' } as const;
      if (current.usedAt) {
        await execute(
          this.sequelize,
          'UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL',
          { bind: [current.familyId], transaction },
        );
        return { error: 'refresh token reused; token family revoked' } as const;
      }
      if (new Date(current.expiresAt).getTime() <= Date.now())
        return { error: 'refresh token expired' } as const;
      const key = await keyById(this.sequelize, current.apiKeyId, transaction);
      if (!key || key.revokedAt) return { error: 'key revoked' } as const;
      await execute(this.sequelize, 'UPDATE refresh_tokens SET used_at = now() WHERE id = $1', {
        bind: [current.id],
        transaction,
      });
      const { token, hash } = generateOpaqueToken();
      await this.storeRefreshToken(current.familyId, key.id, hash, transaction);
      return { key, token } as const;
    });
    // Committed before answering: a revoked family must stay revoked even though the caller gets a 401.
    if ('error' in outcome) throw new InvalidTokenError(outcome.error);
    return this.pair(outcome.key, outcome.token);
  }

  private async storeRefreshToken(
    familyId: string,
    apiKeyId: string,
    hash: Buffer,
    transaction: Transaction,
  ) {
    await execute(
      this.sequelize,
      'INSERT INTO refresh_tokens (family_id, api_key_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)',
      { bind: [familyId, apiKeyId, hash, new Date(Date.now() + this.refreshTtlSeconds * 1000)], transaction },
    );
  }

  private async pair(key: ApiKey, refreshToken: string): Promise<TokenPair> {
    return {
      access_token: await this.mintAccessToken(key),
      token_type: 'Bearer',
      expires_in: this.accessTtlSeconds,
      refresh_token: refreshToken,
    };
  }
}
