import Joi from 'joi';
import { SIGNATURE_STYLES } from '../../signatures/adoptedMarks';
import { MARK_SIZE, MAX_MARK_TEXT, MAX_POINTS, MAX_STROKES } from '../../../core/session/marks';
import type { SignatureKind } from '../../../core/session/signing';

const participantKey = Joi.string().description('`signer-<index>` or `witness-<index>`');

const place = Joi.object({
  id: Joi.string().description(
    'The annotation’s `id`, or `default-signer-<index>`: a signer the document names nowhere',
  ),
  kind: Joi.string().valid('signature', 'initials'),
  participant: participantKey,
  page: Joi.number().integer(),
  x: Joi.number().description('Points from the left edge of the page'),
  y: Joi.number().description('Points from the top edge of the page'),
  width: Joi.number(),
  height: Joi.number(),
  applied_at: Joi.string().isoDate().allow(null),
}).label('SigningPlace');

export const participantProgressSchema = Joi.object({
  participant: participantKey,
  role: Joi.string().valid('signer', 'witness'),
  index: Joi.number().integer(),
  name: Joi.string(),
  consented_at: Joi.string()
    .isoDate()
    .allow(null)
    .description('Consent to electronic records and signatures'),
  adopted: Joi.array().items(Joi.string().valid('signature', 'initials')),
  places_done: Joi.number().integer(),
  places_total: Joi.number().integer(),
  signed_at: Joi.string().isoDate().allow(null).description('When they applied at their last place'),
  focus: Joi.object({ document_id: Joi.string(), place_id: Joi.string() })
    .allow(null)
    .description('The place their page shows now'),
  notary_identifies: Joi.boolean().description(
    'A live act’s signer with no identity check: the notary identifies them in the session before they sign',
  ),
  identified_at: Joi.string().isoDate().allow(null),
  room_state: Joi.string()
    .allow(null)
    .description(
      'What their page last said of its live room: `blocked`, `camera_off`, `muted`, `reconnecting`, `live`…',
    ),
  on_camera: Joi.boolean().description(
    'The notary’s view of a live act in progress: on camera now (they are identified and sign only then)',
  ),
}).label('SigningProgress');

export const signingViewSchema = Joi.object({
  response: Joi.string().valid('Pass'),
  documents: Joi.array().items(
    Joi.object({
      id: Joi.string(),
      name: Joi.string(),
      pages: Joi.array()
        .items(Joi.object({ width: Joi.number(), height: Joi.number() }))
        .description('In points'),
      places: Joi.array().items(place),
      places_done: Joi.number().integer(),
      places_total: Joi.number().integer(),
      notary_can_edit: Joi.boolean().description('The notary may tag places on it'),
    }),
  ),
  participants: Joi.array().items(participantProgressSchema),
  signing_as: Joi.array()
    .items(participantKey)
    .description('Who this page signs as (same-device: every signer)'),
  paused: Joi.string()
    .allow(null)
    .description(
      'In a live act, why signing waits now: `Signing waits until the notary is back in the room`, or ' +
        '`Turn on your camera and microphone to sign`; null when it may go on',
    ),
  notary_on_camera: Joi.boolean().description('In a live act in progress: the notary is on camera now'),
}).label('SigningView');

export const signerIndex = Joi.number()
  .integer()
  .min(0)
  .max(99)
  .description('Same-device signing: the signer on the host’s device this is for (default: the link’s own)');

/** A place of one of the link's participants (a same-device host names the signer). */
export const placeBody = Joi.object({
  document_id: Joi.string().guid().required(),
  place_id: Joi.string().max(64).required(),
  signer_index: signerIndex,
});
export const styles = Object.keys(SIGNATURE_STYLES);
/**
 * A name as a person types it: no control characters (Unicode Cc), lone surrogates or non-characters
 * (nothing to draw), nor bidirectional controls, which would draw "Sam \u202eRengis" as another name.
 * Ranges rather than \p{…}, so that fuzzers and other regex dialects can read it.
 */
export const markText = () =>
  Joi.string()
    .trim()
    .min(1)
    .max(MAX_MARK_TEXT)
    .pattern(
      // eslint-disable-next-line no-control-regex -- refusing control characters is the point
      /^[^\x00-\x1F\x7F-\x9F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF\uFFFE\uFFFF]+$/u,
      'printable characters',
    )
    .required();
/** A mark of this kind: typed, or drawn within its own canvas. */
export const markOf = (kind: SignatureKind) =>
  Joi.alternatives()
    .try(
      Joi.object({
        method: Joi.string().valid('typed').required(),
        style: Joi.string()
          .valid(...styles)
          .required(),
        text: markText(),
      }),
      Joi.object({
        method: Joi.string().valid('drawn').required(),
        strokes: Joi.array()
          .items(
            Joi.array()
              .items(
                Joi.array()
                  .ordered(
                    Joi.number().min(0).max(MARK_SIZE[kind].width),
                    Joi.number().min(0).max(MARK_SIZE[kind].height),
                  )
                  .length(2),
              )
              .min(1)
              .max(MAX_POINTS),
          )
          .min(1)
          .max(MAX_STROKES)
          .required()
          .description(`Points [x, y] on a canvas of ${MARK_SIZE[kind].width} × ${MARK_SIZE[kind].height}`),
      }),
    )
    .messages({
      // Neither shape fits: say both, with the canvas a drawn mark's points stay within.
      'alternatives.match':
        `{#label} is typed (method, style, text) or drawn (method, strokes of [x, y] points within ` +
        `${MARK_SIZE[kind].width} × ${MARK_SIZE[kind].height})`,
    });
