import type { NetworkWitness } from './messages';

export interface WitnessChanges {
  /** Witnesses new in their place, with the e-mail of the one they replace there, if any. */
  assigned: Array<NetworkWitness & { replaces?: string }>;
  /** Places whose witness left or changed: what the one before did there (joining, their ID check) no longer counts. */
  vacated: NetworkWitness[];
}

/** What changed between the network witnesses the session announced in its places and those there now. */
export function witnessChanges(
  announced: readonly NetworkWitness[],
  now: readonly NetworkWitness[],
): WitnessChanges {
  const before = new Map(announced.map((w) => [w.index, w]));
  const after = new Map(now.map((w) => [w.index, w]));
  const assigned = now
    .filter((w) => before.get(w.index)?.email !== w.email)
    .map((w) => {
      const replaced = before.get(w.index);
      return replaced ? { ...w, replaces: replaced.email } : w;
    });
  const vacated = announced.filter((w) => after.get(w.index)?.email !== w.email);
  return { assigned, vacated };
}
