/** The late-notary modal (spec 2.5): a session's delay_threshold, else its account's, else this. */
export interface DelayModal {
  title: string;
  message: string;
  actions: Array<{ label: string; url: string }>;
}

/** Shown when neither the session nor its account has a delay_threshold of its own. */
export const DEFAULT_DELAY_MODAL: DelayModal = {
  title: 'Your notary is running late',
  message:
    'Thank you for waiting. Your notary has been delayed and will be with you as soon as possible. Keep this page ' +
    'open: it moves on by itself when the notary is ready.',
  actions: [],
};
