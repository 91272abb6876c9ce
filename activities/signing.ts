import type { ActivityDependencies } from './dependencies';
import { queryRows } from '../src/db/query';
import { sessionPlaces } from '../src/reads/sessionPlaces';
import { placeKeyOf, type SigningProgress } from '../core/session/signing';

export function signingActivities({ sequelize }: Pick<ActivityDependencies, 'sequelize'>) {
  return {
    /** The session's places to sign as its documents hold them now, and those already applied. */
    async signingProgress({ sessionId }: { sessionId: string }): Promise<SigningProgress> {
      const { places } = await sessionPlaces(sequelize, sessionId);
      const applied = await queryRows<{ document: string; place: string }>(
        sequelize,
        'SELECT document_id AS document, place_id AS place FROM signature_applications WHERE session_id = $1',
        { bind: [sessionId] },
      );
      return { places, applied: applied.map(placeKeyOf) };
    },
  };
}
