/** Who works from the console: the people of the service's network, and team members of an account. */

export type NetworkRole = 'notary' | 'witness';

/** SQL: the network notary or witness aliased `alias` has not been removed from the network by an operator. */
export const stillInNetworkSql = (alias: string) => `${alias}.removed_at IS NULL`;

/** SQL: of the rows an e-mail names, the person in the network, else the one removed last. */
export const PERSON_BY_EMAIL = 'ORDER BY removed_at IS NOT NULL, removed_at DESC LIMIT 1';

/** What refuses anything asked for a person an operator removed from the network. */
export const removedFromNetwork = (role: NetworkRole, email: string, removedAt: Date) =>
  `The network ${role} ${email} was removed at ${removedAt.toISOString()}`;

/** A notary or witness of the service's network, signed in: they belong to no account. */
export interface NetworkPerson {
  id: string;
  role: NetworkRole;
}

/** Whose work list: a team member of an account, or a person of the network. */
export type Worker =
  | { kind: 'member'; accountId: string; memberId: string; role: 'notary' | 'pretagger' | 'admin' }
  | { kind: 'network'; person: NetworkPerson };
