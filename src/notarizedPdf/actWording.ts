/**
 * What the certificate says of the act, and only what its evidence shows: the statutory sentence of each
 * notarial act (the short forms of the Revised Uniform Law on Notarial Acts, made by communication
 * technology), and how much of the act the recording covers.
 */

/** The act's sentence for `names`, made before the notary by audio-video communication on `date`. */
const SENTENCES: Record<string, (names: string, date: string) => string> = {
  Acknowledgement: (names, date) =>
    `This record was acknowledged before me by means of audio-video communication on ${date} by ${names}.`,
  Jurat: (names, date) =>
    `Signed and sworn to (or affirmed) before me by means of audio-video communication on ${date} by ${names}.`,
  Oath: (names, date) => `Sworn to before me by means of audio-video communication on ${date} by ${names}.`,
  Affirmation: (names, date) =>
    `Affirmed before me by means of audio-video communication on ${date} by ${names}.`,
  'Signature Witnessing': (names, date) =>
    `Signed before me by means of audio-video communication on ${date} by ${names}.`,
  'Copy Certification': (names, date) =>
    `I certify that this is a true and correct copy of a record presented to me by means of audio-video ` +
    `communication on ${date} by ${names}.`,
};

export function statutorySentences(
  actTypes: readonly string[],
  names: readonly string[],
  date: string,
): string[] {
  const who = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  return actTypes.flatMap((act) => (SENTENCES[act] ? [SENTENCES[act](who, date)] : []));
}

/** A recording's segments as the media server kept them: one per room, a restart opening the next. */
export interface CoveredSegment {
  started_at: string;
  ended_at: string | null;
}

const clock = (iso: string | null) => (iso ? iso.slice(11, 19) : 'its end');

/**
 * How the act was performed and recorded: "recorded in full" only for one segment from the start to the
 * completion; a media server's restart leaves segments with a gap between them, and the certificate says so.
 */
export function recordingCoverage(segments: readonly CoveredSegment[]): string {
  const lead = 'Performed by remote online notarization using audio-video communication';
  if (segments.length <= 1) return `${lead}, recorded in full.`;
  const gaps = segments
    .slice(1)
    .map((s, i) => `${clock(segments[i].ended_at)} to ${clock(s.started_at)} UTC`)
    .join(', ');
  return (
    `${lead}, recorded in ${segments.length} segments: the media server restarted during the act, and ` +
    `nothing was recorded from ${gaps}.`
  );
}
