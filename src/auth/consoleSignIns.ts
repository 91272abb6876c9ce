import type { Sequelize } from 'sequelize';
import { execute, queryRows } from '../db/query';

/**
 * A notary console sign-in: opened by a login link, it lives a working day (CONSOLE_SIGN_IN_SECONDS) or
 * until its person signs out. Its access tokens stay short-lived; the console renews them while in use.
 */
export async function openSignIn(sequelize: Sequelize, subjectId: string, lifetimeSeconds: number) {
  const [row] = await queryRows<{ id: string; ends_at: Date }>(
    sequelize,
    `INSERT INTO console_sign_ins (subject_id, ends_at) VALUES ($1, now() + make_interval(secs => $2))
     RETURNING id, ends_at`,
    { bind: [subjectId, lifetimeSeconds] },
  );
  return { id: row.id, endsAt: new Date(row.ends_at) };
}

/** SQL true while sign-in `$id` of `$subject` is open: not signed out, not past its end. */
export function signInIsOpenSql(id: string, subject: string): string {
  return `EXISTS (SELECT 1 FROM console_sign_ins i WHERE i.id = ${id} AND i.subject_id = ${subject}
                    AND i.signed_out_at IS NULL AND i.ends_at > now())`;
}

/** When an open sign-in ends, or undefined once it has. */
export async function signInEnd(sequelize: Sequelize, id: string): Promise<Date | undefined> {
  const [row] = await queryRows<{ ends_at: Date }>(
    sequelize,
    'SELECT ends_at FROM console_sign_ins WHERE id = $1 AND signed_out_at IS NULL AND ends_at > now()',
    { bind: [id] },
  );
  return row ? new Date(row.ends_at) : undefined;
}

/** Ends a sign-in: every token of it is refused from now on. Signing out twice is harmless. */
export async function signOut(sequelize: Sequelize, id: string): Promise<void> {
  await execute(
    sequelize,
    'UPDATE console_sign_ins SET signed_out_at = coalesce(signed_out_at, now()) WHERE id = $1',
    { bind: [id] },
  );
}
