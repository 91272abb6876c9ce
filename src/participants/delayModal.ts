import type { DelayModal } from '../../core/wire/journey';

/** Shown when neither the session nor its account has a delay_threshold of its own. */
export const DEFAULT_DELAY_MODAL: DelayModal = {
  title: 'Your notary is running late',
  message:
    'Thank you for waiting. Your notary has been delayed and will be with you as soon as possible. Keep this page ' +
    'open: it moves on by itself when the notary is ready.',
  actions: [],
};
