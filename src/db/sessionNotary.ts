/**
 * From `sessions s`: its team notary's link `m` (with the user `u` and commission `c`), or its network
 * notary `n`. Whoever the notary is, `coalesce(c.x, n.x)` reads their commission.
 */
export const SESSION_NOTARY_JOINS = `LEFT JOIN account_members m ON m.id = s.notary_member_id
       LEFT JOIN users u ON u.id = m.user_id
       LEFT JOIN notary_commissions c ON c.user_id = m.user_id
       LEFT JOIN network_notaries n ON n.id = s.network_notary_id`;

/** A team member's display name, from their link to the account `m`. */
export const MEMBER_NAME = `m.first_name || ' ' || m.last_name`;
/** A network notary's display name, from `n`. */
export const NETWORK_NOTARY_NAME = `n.first_name || ' ' || n.last_name`;
