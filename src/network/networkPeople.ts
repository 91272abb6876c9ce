import type { Sequelize } from 'sequelize';
import { generateOpaqueToken, secretMatches } from '../auth/keys';
import { isUuid } from '../ids';
import { conflict, notFound } from '../domain/errors';
import { execute, isUniqueViolation, queryRows } from '../db/query';
import type { LoginLinkSettings } from '../team/loginLinks';
import { PERSON_BY_EMAIL, removedFromNetwork, type NetworkRole } from '../auth/people';

export interface NetworkPersonView {
  id: string;
  email: string;
  name: string;
  role: NetworkRole;
}

const TABLE: Record<NetworkRole, string> = { notary: 'network_notaries', witness: 'network_witnesses' };
const LINK_COLUMN: Record<NetworkRole, string> = { notary: 'notary_id', witness: 'witness_id' };

/** A witness of the service's own network, whom sessions with `number_of_service_witnesses` are given. */
export async function addNetworkWitness(
  sequelize: Sequelize,
  input: { email: string; firstName: string; lastName: string },
): Promise<{ witness_id: string }> {
  try {
    const [witness] = await queryRows<{ id: string }>(
      sequelize,
      'INSERT INTO network_witnesses (email, first_name, last_name) VALUES ($1, $2, $3) RETURNING id',
      { bind: [input.email, input.firstName, input.lastName] },
    );
    return { witness_id: witness.id };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A network witness with e-mail ${input.email} already exists`);
    throw err;
  }
}

async function findPerson(
  sequelize: Sequelize,
  role: NetworkRole,
  where: string,
  value: string,
): Promise<(NetworkPersonView & { removedAt: Date | null }) | undefined> {
  const [person] = await queryRows<Omit<NetworkPersonView, 'role'> & { removed_at: Date | null }>(
    sequelize,
    `SELECT id, email, first_name || ' ' || last_name AS name, removed_at FROM ${TABLE[role]}
      WHERE ${where} ${PERSON_BY_EMAIL}`,
    { bind: [value] },
  );
  if (!person) return undefined;
  const { removed_at, ...view } = person;
  return { ...view, role, removedAt: removed_at };
}

/** A 12-hour login link for a network notary or witness, like a team member's (spec 4.9). */
export async function createNetworkLoginLink(
  sequelize: Sequelize,
  settings: LoginLinkSettings,
  email: string,
): Promise<{ login_link: string; expires_in: number; role: NetworkRole }> {
  // A notary removed may be a witness still in the network, under the same e-mail.
  const found = [
    await findPerson(sequelize, 'notary', 'lower(email) = lower($1)', email),
    await findPerson(sequelize, 'witness', 'lower(email) = lower($1)', email),
  ].filter((p) => p !== undefined);
  const person = found.find((p) => !p.removedAt) ?? found[0];
  if (!person) throw notFound(`No network notary or witness has e-mail ${email}`);
  if (person.removedAt) throw conflict(removedFromNetwork(person.role, person.email, person.removedAt));
  const { token: key, hash } = generateOpaqueToken();
  const [link] = await queryRows<{ id: string }>(
    sequelize,
    `INSERT INTO network_login_links (${LINK_COLUMN[person.role]}, key_hash, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING id`,
    { bind: [person.id, hash, settings.lifetimeSeconds] },
  );
  const url = new URL(`${settings.frontUrl}/auto/${encodeURIComponent(link.id)}`);
  url.searchParams.set('key', key);
  return { login_link: url.toString(), expires_in: settings.lifetimeSeconds, role: person.role };
}

/** The network person a login link stands for; an expired link is deleted on the spot. */
export async function networkPersonForLoginLink(
  sequelize: Sequelize,
  linkId: string,
  key: string,
): Promise<NetworkPersonView | undefined> {
  if (!isUuid(linkId)) return undefined;
  const [link] = await queryRows<{
    notary_id: string | null;
    witness_id: string | null;
    key_hash: Buffer;
    expired: boolean;
  }>(
    sequelize,
    `SELECT notary_id, witness_id, key_hash, expires_at <= now() AS expired
       FROM network_login_links WHERE id = $1`,
    { bind: [linkId] },
  );
  if (!link) return undefined;
  if (link.expired) {
    await execute(sequelize, 'DELETE FROM network_login_links WHERE id = $1', { bind: [linkId] });
    return undefined;
  }
  if (!secretMatches(key, link.key_hash)) return undefined;
  const person = link.notary_id
    ? await findPerson(sequelize, 'notary', 'id = $1', link.notary_id)
    : await findPerson(sequelize, 'witness', 'id = $1', link.witness_id!);
  if (!person || person.removedAt) return undefined;
  const { removedAt: _removed, ...view } = person;
  return view;
}
