import type { MigrationContext } from '../src/db/migrator';

/**
 * A session keeps its plan (core/session/plan.ts): what it was asked for at creation, as its workflow is
 * started with it, so the API judges a session by the same plan as its workflow rather than rebuilding
 * one from its options. Sessions created before have theirs built from the columns and options they
 * kept: the witness rule from their witnesses, and no identity rule (their workflows judge those).
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE sessions ADD COLUMN plan jsonb;
    UPDATE sessions s SET plan = jsonb_strip_nulls(jsonb_build_object(
      'holdInvitesUntilPretagged', coalesce((s.options ->> 'send_invite_after_pretagging')::boolean, false),
      'startAt', (extract(epoch FROM s.session_timing) * 1000)::bigint,
      'notary', jsonb_strip_nulls(CASE
        WHEN s.notary_member_id IS NOT NULL
          THEN jsonb_build_object('kind', 'team', 'memberId', s.notary_member_id,
                                  'state', s.options ->> 'state_specific_notary')
        ELSE jsonb_build_object('kind', 'network', 'state', s.options ->> 'state_specific_notary') END),
      'deliveryMode', coalesce(s.options ->> 'final_documents_delivery_mode', 'immediately'),
      'primarySignerIndex', 0,
      'witnessesRequired',
        (SELECT count(*) FROM participants p
          WHERE p.session_id = s.id AND p.role = 'witness' AND p.network_witness_id IS NULL)
        + coalesce((s.options -> 'witnesses' ->> 'number_of_service_witnesses')::integer, 0),
      'serviceWitnesses', coalesce((s.options -> 'witnesses' ->> 'number_of_service_witnesses')::integer, 0),
      'identityRequired', '[]'::jsonb));
    ALTER TABLE sessions ALTER COLUMN plan SET NOT NULL;
  `);
}
