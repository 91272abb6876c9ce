import fs from 'node:fs';
import type { Command } from 'commander';
import { LogoError, setAccountBrand } from '../src/accounts/brand';
import { UsageError, brandColor, print, uuid, withDatabase } from './adminSupport';

/** `set-branding`: the colour and logo of an account's participant pages. */
export function addBrandingCommand(program: Command): void {
  program
    .command('set-branding')
    .description(
      "Set the participant pages' brand colour and logo (PNG or JPEG, at most 200 KB) of an account",
    )
    .requiredOption('--account <id>', 'account id', uuid)
    .option('--brand-color <#rrggbb>', "the pages' brand colour", brandColor)
    .option('--logo <file>', 'a PNG or JPEG logo, shown at most 48 pixels high')
    .option('--no-logo', 'remove the logo')
    .action(async (opts: { account: string; brandColor?: string; logo?: string | false }) => {
      let logo: Buffer | null | undefined;
      if (opts.logo === false) logo = null;
      else if (typeof opts.logo === 'string') {
        if (!fs.existsSync(opts.logo)) throw new UsageError(`--logo: no file ${opts.logo}`);
        logo = fs.readFileSync(opts.logo);
      }
      await withDatabase(async (sequelize) => {
        try {
          await setAccountBrand(sequelize, opts.account, { brandColor: opts.brandColor, logo });
        } catch (err) {
          throw err instanceof LogoError ? new UsageError(`--logo: ${err.message}`) : err;
        }
      });
      print({
        account_id: opts.account,
        brand_color: opts.brandColor ?? null,
        logo: logo ? 'set' : logo === null ? 'removed' : 'unchanged',
      });
    });
}
