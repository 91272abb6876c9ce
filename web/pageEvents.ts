/**
 * What the page's two programs (the live room, the signing) tell each other: the signing hears from the
 * session whether the notary is on camera, and the room marks the notary's tile by it, not by a still frame.
 */
export const NOTARY_SEEN = 'notarization:notary-seen';
