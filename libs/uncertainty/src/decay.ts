import { UNCERTAINTY_CONFIG, type Reliability } from './config.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * "Memory Reliability Model": natural confidence decay per category half-life,
 * sped up by the state's multiplier (superseded fades 3× faster). `ageMs` runs
 * from the memory's last confirmation.
 */
export function decayedConfidence(confidence: number, type: string, reliability: Reliability, ageMs: number): number {
  const halfLife = UNCERTAINTY_CONFIG.halfLifeDays[type] ?? UNCERTAINTY_CONFIG.halfLifeDays.PREFERENCE!;
  const days = Math.max(0, ageMs) / DAY_MS;
  return confidence * 0.5 ** ((days * UNCERTAINTY_CONFIG.decayMultiplier[reliability]) / halfLife);
}

/** assembly_weight = base_type_weight · importance · max(reliability_floor, reliability_factor). */
export function assemblyWeight(type: string, importance: number, reliability: Reliability): number {
  const base = UNCERTAINTY_CONFIG.baseTypeWeight[type] ?? 0.8;
  return base * importance * Math.max(UNCERTAINTY_CONFIG.reliabilityFloor, UNCERTAINTY_CONFIG.reliabilityFactor[reliability]);
}

/** Reads a stored state, anything unknown as reliable (the default of the schema). */
export function reliabilityOf(value: string | null | undefined): Reliability {
  return value === 'uncertain' || value === 'contradicted' || value === 'superseded' ? value : 'reliable';
}
