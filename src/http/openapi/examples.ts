/**
 * Examples for the OpenAPI document: every request body an integrator sends, written out (and checked
 * against the route's own validation by the OpenAPI test), and the answers that matter most. Other
 * answers get an example generated from their schema (see document.ts).
 */

/** A one-page PDF, as base64Doc carries it. */
export const EXAMPLE_PDF_BASE64 =
  'JVBERi0xLjcKJYGBgYEKCjEgMCBvYmoKPDwKL1R5cGUgL1BhZ2VzCi9LaWRzIFsgNCAwIFIgXQovQ291bnQgMQo+PgplbmRvYmoKCjIgMCBvYmoKPDwKL1R5cGUgL0NhdGFsb2cKL1BhZ2VzIDEgMCBSCj4+CmVuZG9iagoKMyAwIG9iago8PAovUHJvZHVjZXIgPEZFRkYwMDcwMDA2NDAwNjYwMDJEMDA2QzAwNjkwMDYyMDAyMDAwMjgwMDY4MDA3NDAwNzQwMDcwMDA3MzAwM0EwMDJGMDAyRjAwNjcwMDY5MDA3NDAwNjgwMDc1MDA2MjAwMkUwMDYzMDA2RjAwNkQwMDJGMDA0ODAwNkYwMDcwMDA2NDAwNjkwMDZFMDA2NzAwMkYwMDcwMDA2NDAwNjYwMDJEMDA2QzAwNjkwMDYyMDAyOT4KL01vZERhdGUgKEQ6MjAyNjExMjMyMjE3MzdaKQovQ3JlYXRvciA8RkVGRjAwNzAwMDY0MDA2NjAwMkQwMDZDMDA2OTAwNjIwMDIwMDAyODAwNjgwMDc0MDA3NDAwNzAwMDczMDAzQTAwMkYwMDJGMDA2NzAwNjkwMDc0MDA2ODAwNzUwMDYyMDAyRTAwNjMwMDZGMDA2RDAwMkYwMDQ4MDA2RjAwNzAwMDY0MDA2OTAwNkUwMDY3MDAyRjAwNzAwMDY0MDA2NjAwMkQwMDZDMDA2OTAwNjIwMDI5PgovQ3JlYXRpb25EYXRlIChEOjIwMjYxMTIzMjIxNzM3WikKPj4KZW5kb2JqCgo0IDAgb2JqCjw8Ci9UeXBlIC9QYWdlCi9QYXJlbnQgMSAwIFIKL1Jlc291cmNlcyA8PAo+PgovTWVkaWFCb3ggWyAwIDAgNjEyIDc5MiBdCj4+CmVuZG9iagoKeHJlZgowIDUKMDAwMDAwMDAwMCA2NTUzNSBmIAowMDAwMDAwMDE2IDAwMDAwIG4gCjAwMDAwMDAwNzYgMDAwMDAgbiAKMDAwMDAwMDEyNiAwMDAwMCBuIAowMDAwMDAwNTk2IDAwMDAwIG4gCgp0cmFpbGVyCjw8Ci9TaXplIDUKL1Jvb3QgMiAwIFIKL0luZm8gMyAwIFIKPj4KCnN0YXJ0eHJlZgo2ODcKJSVFT0Y=';

const SESSION_ID = '5f0c2a4e-8b1d-4c59-9a51-2d7e6b8f1c30';
const TOKEN = 'hK3v9Qm2Xc7LpT0sYw4Nb8Rf1Jd6Ga5Ze3Ui9Oq2Wx7';
/** The first bytes of a PNG, as a (much shortened) base64 photo. */
const PHOTO =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const DOCUMENT_ID = '0b6f3e2a-7c41-4d8e-9a15-3f2c8d9e1b74';

export const REQUEST_EXAMPLES: Record<string, unknown> = {
  participantConsent: { accepted: true },
  adoptNotarySignature: { signature: { method: 'typed', style: 'great-vibes', text: 'Dana Notary' } },
  participantAdoptSignature: {
    signature: { method: 'typed', style: 'dancing-script', text: 'Jane Q. Signer' },
    initials: {
      method: 'drawn',
      strokes: [
        [
          [40, 110],
          [90, 30],
          [140, 110],
        ],
        [
          [170, 40],
          [170, 110],
          [230, 110],
        ],
      ],
    },
  },
  participantApplySignature: { document_id: DOCUMENT_ID, place_id: 'a91c07d3e5f2' },
  participantSigningFocus: { document_id: DOCUMENT_ID, place_id: 'a91c07d3e5f2' },
  participantRoomState: { state: 'camera_off' },
  addAnnotation: {
    fieldType: 'initials',
    pageNum: 2,
    x: 460,
    y: 700,
    width: 80,
    height: 36,
    role: 'signer',
    participant_index: 1,
  },
  moveAnnotation: { pageNum: 2, x: 420, y: 690 },
  identifySigner: { basis: 'credible_witness', credible_witness_name: 'Robin Reyes' },
  refreshToken: { api_key: 'nsk_3f9a1c0d_Zx8Qw2Lm5Nv7Bc4Kd9Ht1Rp6Sy3' },
  loginWithLink: {
    login_link_id: '8d2e6f1a-3b4c-4d5e-9f60-718293a4b5c6',
    key: 'k9T2mQ7xL4vB8nR1cW5zY3hJ6pD0sF',
  },
  confirmCommissionChange: { key: 'Jr4sW8eQ1nV6bX0cK3mZ7tY2pH5gL9uD1fA4iO8qE2w' },
  createSession: {
    signing_type: 'ron',
    notarization_id: 'LOAN20261001',
    session_type: 'gnw',
    notarization_timing_type: 'notarize_now',
    session_notary_email: 'nora.notary@example.com',
    notarization_types: 'Acknowledgement',
    final_documents_delivery_mode: 'immediately',
    all_signers: [
      {
        email: 'sam.signer@example.com',
        first_name: 'Sam',
        last_name: 'Signer',
        address: '4100 Congress Avenue',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        contact_details: '+1 512 555 0142',
        authentication_type: 'kba',
      },
    ],
    witnesses: {
      number_of_service_witnesses: 0,
      invited_witness_details: [{ email: 'wes.witness@example.com', firstname: 'Wes', lastname: 'Witness' }],
    },
    session_documents: [{ name: 'deed-of-trust.pdf', base64Doc: EXAMPLE_PDF_BASE64 }],
    loan_details: { loan_number: '1001', loan_session_type: 'refinance' },
    session_configurations: {
      auto_expire_session_on: '2026-12-31T17:00:00-06:00',
      delay_threshold: {
        title: 'Your notary is running a few minutes late',
        message: 'Please keep this page open; your notary will join shortly.',
        actions: [{ label: 'Reschedule', url: 'https://example.com/reschedule' }],
      },
    },
  },
  addSessionDocuments: { session_documents: [{ name: 'addendum.pdf', base64Doc: EXAMPLE_PDF_BASE64 }] },
  session_pretagged: {},
  session_start: {},
  session_complete: {},
  session_release_documents: {},
  session_cancel: { reason: 'The signer asked to reschedule by phone.' },
  acceptOffer: {},
  declineOffer: {},
  renewConsoleSignIn: {},
  signOutOfConsole: {},
  witnessJoin: {},
  inviteTeamMember: {
    email: 'nora.notary@example.com',
    business_role: 'notary',
    first_name: 'Nora',
    last_name: 'Notary',
    state: 'TX',
    county: 'Travis',
    commission_number: 'TX-13579',
    commission_expires_on: '2030-06-30',
    vendor_user_id: 'emp-0042',
  },
  createTeamMember: {
    email: 'pat.pretagger@example.com',
    business_role: 'pretagger',
    first_name: 'Pat',
    last_name: 'Pretagger',
  },
  completeNotaryOnboarding: {
    state: 'TX',
    county: 'Travis',
    commission_number: 'TX-13579',
    commission_expires_on: '2030-06-30',
  },
  createLoginLink: { email: 'nora.notary@example.com' },
  createTemplate: {
    name: 'deed-of-trust-template.pdf',
    base64Doc: EXAMPLE_PDF_BASE64,
    annotations: [
      {
        fieldType: 'signature',
        pageNum: 1,
        x: 72,
        y: 120,
        width: 200,
        height: 40,
        role: 'signer',
        participant_index: 0,
      },
    ],
  },
  createWebhookEndpoint: {
    url: 'https://hooks.example.com/notarization',
    events: ['session_completed', 'documents_released', 'identity_verified'],
  },
  updateWebhookEndpoint: { url: 'https://hooks.example.com/notarization/v2', enabled: true },
  startKba: {},
  answerKba: {
    answers: [
      { question_id: 'city', choice_id: 'b' },
      { question_id: 'zip', choice_id: 'a' },
      { question_id: 'street', choice_id: 'd' },
      { question_id: 'vehicle', choice_id: 'e' },
      { question_id: 'surname', choice_id: 'c' },
    ],
  },
  checkParticipantId: { id_front: PHOTO, id_back: PHOTO, selfie: PHOTO },
  checkNetworkWitnessId: { id_front: PHOTO, selfie: PHOTO },
  signalingCreate: { janus: 'create', transaction: 'a1', token: 'eyJhbGciOiJIUzI1NiJ9.media-token' },
  signalingSession: {
    janus: 'attach',
    plugin: 'janus.plugin.videoroom',
    transaction: 'a2',
    token: 'eyJhbGciOiJIUzI1NiJ9.media-token',
  },
  signalingHandle: {
    janus: 'message',
    transaction: 'a3',
    token: 'eyJhbGciOiJIUzI1NiJ9.media-token',
    body: { request: 'join', ptype: 'publisher' },
  },
  mediaServerEvents: [
    {
      type: 64,
      timestamp: 1795836833065000,
      session_id: 4427017310429112,
      handle_id: 3829120395812345,
      event: {
        plugin: 'janus.plugin.videoroom',
        data: { event: 'published', room: '5f0c8a52-1b7e-4d1c-9a53-2e61f0c7d9b4.1', id: 'signer-0~Q6C9rR3A' },
      },
    },
  ],
};

/** Answers written out where a generated one would say too little. */
export const RESPONSE_EXAMPLES: Record<string, Record<number, unknown>> = {
  createSession: {
    200: {
      response: 'Pass',
      response_message: 'Session created successfully',
      notarization_id: 'LOAN20261001',
      bn_session_id: SESSION_ID,
      bn_signing_url: `/sign/${TOKEN}`,
      full_signing_url: `https://notary.example.com/sign/${TOKEN}`,
      additional_signers_signing_urls: [],
      signing_urls: [
        {
          signer_index: 0,
          bn_signing_url: `/sign/${TOKEN}`,
          full_signing_url: `https://notary.example.com/sign/${TOKEN}`,
        },
      ],
      witnessess_signing_urls: [
        {
          witness_index: 0,
          email: 'wes.witness@example.com',
          bn_signing_url: '/sign/Wn4cR8tY2uI6oP0aS3dF7gH1jK5lZ9xC2vB6nM4qE8r',
          full_signing_url: 'https://notary.example.com/sign/Wn4cR8tY2uI6oP0aS3dF7gH1jK5lZ9xC2vB6nM4qE8r',
        },
      ],
    },
  },
  answerKba: {
    200: {
      response: 'Pass',
      check_id: '0b7e3c2a-1d4f-4a6b-8c9d-0e1f2a3b4c5d',
      attempt: 1,
      outcome: 'failed',
      correct: 3,
      total: 5,
      reasons: ['3 of 5 answers were correct; 80 % are needed'],
      locked_until: null,
      retake_until: '2026-11-24T15:04:05.000Z',
    },
  },
};
