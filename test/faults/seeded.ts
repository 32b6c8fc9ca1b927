// Seeded fault schedules: the same seed gives the same faults, so a run repeats and a
// failure can be replayed (FAULTS_SEED).
import { mulberry32 } from '../seeded-random';

/** The seed of every fault schedule: FAULTS_SEED, or a fixed default. */
export const FAULTS_SEED = Number(process.env.FAULTS_SEED ?? 20261201);

/** A 32-bit hash of a text (FNV-1a). */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A pseudo-random generator of numbers in [0, 1) (mulberry32), from a seed and a label. */
export function seededRandom(seed: number, label: string): () => number {
  return mulberry32(seed ^ hash32(label));
}

/** Which events of a sequence (0, 1, 2…) get the fault: each with probability `share`. */
export function faultSchedule(seed: number, label: string, share: number): (index: number) => boolean {
  const random = seededRandom(seed, label);
  const decided: boolean[] = [];
  return (index) => {
    while (decided.length <= index) decided.push(random() < share);
    return decided[index]!;
  };
}
