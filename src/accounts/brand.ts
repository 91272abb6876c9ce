import { Resvg } from '@resvg/resvg-js';
import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import { NotFoundError } from './accounts';
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

/** A logo the pages cannot show: too large, or not a PNG or JPEG. */
export class LogoError extends Error {}

/** A logo's pixels, at most: each page paints it decoded, whatever its file's size. */
export const MAX_LOGO_PIXELS = { width: 2000, height: 2000 };

/**
 * Sets an account's brand colour and logo (null removes it), each only when given, in one statement.
 * The logo is a PNG or JPEG of at most 200 KB and 2000 × 2000 pixels, stored re-encoded as a PNG: only
 * its pixels reach the pages, nothing else its file carried.
 */
export async function setAccountBrand(
  sequelize: Sequelize,
  accountId: string,
  change: { brandColor?: string; logo?: Buffer | null },
): Promise<void> {
  const logo = change.logo ? reencoded(change.logo) : change.logo;
  const updated = await queryRows(
    sequelize,
    `UPDATE accounts SET brand_color = COALESCE($2, brand_color),
            logo = CASE WHEN $4 THEN $3 ELSE logo END, logo_type = CASE WHEN $4 THEN $5 ELSE logo_type END
      WHERE id = $1 RETURNING id`,
    {
      bind: [
        accountId,
        change.brandColor ?? null,
        logo ?? null,
        logo !== undefined,
        logo ? 'image/png' : null,
      ],
    },
  );
  if (!updated.length) throw new NotFoundError(`No account ${accountId}`);
}

/** The logo's pixels as a new PNG, once its header shows a size the pages can afford to decode. */
function reencoded(logo: Buffer): Buffer {
  if (logo.length > MAX_LOGO_BYTES)
    throw new LogoError(`the logo is ${logo.length} bytes; at most ${MAX_LOGO_BYTES}`);
  const size = imageDimensions(logo);
  if (!size) throw new LogoError('the logo must be a PNG or JPEG image');
  const { width, height } = MAX_LOGO_PIXELS;
  if (size.width > width || size.height > height)
    throw new LogoError(`the logo is ${size.width} × ${size.height} pixels; at most ${width} × ${height}`);
  const type = logo[0] === 0x89 ? 'image/png' : 'image/jpeg';
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">` +
    `<image width="${size.width}" height="${size.height}" href="data:${type};base64,${logo.toString('base64')}"/></svg>`;
  const png = Buffer.from(new Resvg(svg, { fitTo: { mode: 'original' } }).render().asPng());
  if (png.length > MAX_LOGO_BYTES)
    throw new LogoError(`the logo re-encoded as PNG is ${png.length} bytes; at most ${MAX_LOGO_BYTES}`);
  return png;
}
