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

/**
 * What a certificate states about the session's notary, as one JSON object, from the joins above: the
 * commission's name, state, county, number and expiry, their newest seal (network notaries have none) and
 * their newest adopted signature.
 */
export const NOTARY_AT_THE_ACT = `jsonb_build_object(
         'name', coalesce(c.first_name || ' ' || c.last_name, ${NETWORK_NOTARY_NAME}),
         'state', coalesce(c.state, n.state),
         'county', c.county,
         'commission_number', coalesce(c.commission_number, n.commission_number),
         'commission_expires_on', to_char(coalesce(c.commission_expires_on, n.commission_expires_on), 'YYYY-MM-DD'),
         'seal_id', (SELECT ns.id FROM notary_seals ns WHERE ns.user_id = c.user_id ORDER BY ns.created_at DESC LIMIT 1),
         'signature_id', (SELECT g.id FROM notary_signatures g
                           WHERE g.user_id = m.user_id OR g.network_notary_id = n.id
                           ORDER BY g.adopted_at DESC LIMIT 1))`;
