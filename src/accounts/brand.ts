import type { Sequelize } from 'sequelize';
import { execute, queryRows } from '../db/query';
import { imageDimensions } from '../documents/documentLimits';
import { sha256 } from '../auth/keys';

/** How an account's participant pages look: its name, colour and logo. */
export interface AccountBrand {
  name: string;
  brand_color: string | null;
  /** A `data:` URI, inlined so the page needs no further request (and its policy no other origin). */
  logo: string | null;
}

export const MAX_LOGO_BYTES = 200 * 1024;

const BRAND_COLUMNS = `a.name, a.brand_color,
  CASE WHEN a.logo IS NULL THEN NULL ELSE 'data:' || a.logo_type || ';base64,' || encode(a.logo, 'base64') END AS logo`;

/** The brand of the account whose session a signing link belongs to; undefined for an unknown link. */
export async function brandOfLink(sequelize: Sequelize, token: string): Promise<AccountBrand | undefined> {
  const [brand] = await queryRows<AccountBrand>(
    sequelize,
    `SELECT ${BRAND_COLUMNS} FROM participants p JOIN sessions s ON s.id = p.session_id
       JOIN accounts a ON a.id = s.account_id WHERE p.token_hash = $1`,
    { bind: [sha256(token)] },
  );
  return brand && { ...brand, logo: unwrapped(brand.logo) };
}

export async function brandOfSession(sequelize: Sequelize, sessionId: string): Promise<AccountBrand> {
  const [brand] = await queryRows<AccountBrand>(
    sequelize,
    `SELECT ${BRAND_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id = $1`,
    { bind: [sessionId] },
  );
  return { ...brand, logo: unwrapped(brand.logo) };
}

/** PostgreSQL's base64 wraps lines every 76 characters; a data URI has none. */
const unwrapped = (logo: string | null) => logo?.replace(/\s/g, '') ?? null;

/** Sets (or, with null, removes) an account's logo: a PNG or JPEG of at most 200 KB. */
export async function setAccountLogo(sequelize: Sequelize, accountId: string, logo: Buffer | null) {
  const type = logo ? logoType(logo) : null;
  await execute(sequelize, 'UPDATE accounts SET logo = $2, logo_type = $3 WHERE id = $1', {
    bind: [accountId, logo, type],
  });
}

function logoType(logo: Buffer): 'image/png' | 'image/jpeg' {
  if (logo.length > MAX_LOGO_BYTES)
    throw new Error(`the logo is ${logo.length} bytes; at most ${MAX_LOGO_BYTES}`);
  if (!imageDimensions(logo)) throw new Error('the logo must be a PNG or JPEG image');
  return logo[0] === 0x89 ? 'image/png' : 'image/jpeg';
}
