import { parseKey, stanceOf } from '@hearth/memory-rules';
import { UNCERTAINTY_CONFIG, type DriftDomain } from './config.js';
import { stanceCue } from './cues.js';
import { decayedConfidence } from './decay.js';
import { surfaceContextOf, valueWords } from './describe.js';
import { evidenceWinner, severityOf, sideOf } from './check.js';
import type { HeldMemory, NewUncertainty, ReliabilityChange, Resolution, UncertaintyRecord } from './types.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Topic domain rotation": the domain a memory key belongs to. */
export function domainOf(key: string): DriftDomain {
  const p = parseKey(key);
  if (!p) return 'personal';
  if (p.type === 'FACT') return p.field === 'occupation' ? 'work' : 'personal';
  if (p.type === 'PREFERENCE') return p.category === 'study_style' ? 'work' : 'hobbies';
  if (p.type === 'RELATIONSHIP_EVENT') return p.domain === 'work' || p.domain === 'school' ? 'work' : p.domain === 'relationship' || p.domain === 'family' ? 'relationships' : p.domain === 'travel' || p.domain === 'other' ? 'hobbies' : 'personal';
  return p.pattern.includes('work') || p.pattern.includes('school') ? 'work' : 'personal';
}

/** "Budget: ~10-20 memories per drift cycle", more when the user's tolerance is low ("drift contradiction budget"). */
export function driftBudget(tolerance: number): number {
  const { budgetMin, budgetMax } = UNCERTAINTY_CONFIG.drift;
  const { min, max } = UNCERTAINTY_CONFIG.tolerance;
  const low = (max - Math.min(max, Math.max(min, tolerance))) / (max - min);
  return Math.round(budgetMin + (budgetMax - budgetMin) * low);
}

/** "Sampling strategy": weighted by recency, access and strength; ties by id, so a replay samples the same. */
export function sampleForDrift(memories: readonly HeldMemory[], domain: DriftDomain, budget: number, at: Date): HeldMemory[] {
  const { recencyHalfLifeDays, accessWeight, strengthWeight } = UNCERTAINTY_CONFIG.drift;
  const weight = (m: HeldMemory) => 0.5 ** ((at.getTime() - m.lastConfirmedAt.getTime()) / DAY_MS / recencyHalfLifeDays) + accessWeight * Math.log1p(m.accessCount) + strengthWeight * m.confidence;
  return memories
    .filter((m) => m.status !== 'INVALID' && domainOf(m.key) === domain)
    .map((m) => ({ m, w: weight(m) }))
    .sort((a, b) => b.w - a.w || (a.m.memoryId < b.m.memoryId ? -1 : 1))
    .slice(0, budget)
    .map((x) => x.m);
}

export interface DriftInput {
  cycle: number;
  memories: readonly HeldMemory[];
  records: readonly UncertaintyRecord[];
  tolerance: number;
  at: Date;
  newId: (discriminator: string) => string;
}

export interface DriftDecision {
  domain: DriftDomain;
  sampled: string[];
  pairsChecked: number;
  records: NewUncertainty[];
  resolutions: Resolution[];
  reliability: ReliabilityChange[];
}

/**
 * Context 2 (RECONCILE), pure: one cycle over the domain of its rotation. For
 * each sampled memory: its open uncertainties are resolved when a side decayed
 * below the floor (`decayed`) or the evidence now clearly favours one side; a
 * stance its episodes contradict (an event that hates what a preference
 * loves) is recorded (episode vs trait); a singleton fact neither restated nor
 * confirmed for `staleAfterDays` becomes a `stale` solo uncertainty.
 */
export function reconcile(input: DriftInput): DriftDecision {
  const domain = UNCERTAINTY_CONFIG.drift.domains[input.cycle % UNCERTAINTY_CONFIG.drift.domains.length]!;
  const sampled = sampleForDrift(input.memories, domain, driftBudget(input.tolerance), input.at);
  const out: DriftDecision = { domain, sampled: sampled.map((m) => m.memoryId), pairsChecked: 0, records: [], resolutions: [], reliability: [] };
  const byId = new Map(input.memories.map((m) => [m.memoryId, m]));
  const done = new Set<string>();
  const covered = (memoryId: string, type: string) => input.records.some((u) => u.type === type && u.state !== 'resolved' && u.state !== 'decayed' && u.sides.some((s) => s.id === memoryId));
  for (const m of sampled) {
    for (const u of input.records) {
      if (done.has(u.uncertaintyId) || (u.state !== 'open' && u.state !== 'surfaced') || !u.sides.some((s) => s.id === m.memoryId)) continue;
      out.pairsChecked += 1;
      const now = u.sides.map((s) => {
        const held = byId.get(s.id);
        return held ? { ...s, confidence: decayedConfidence(held.confidence, held.type, held.reliability, input.at.getTime() - held.lastConfirmedAt.getTime()) } : s;
      });
      const faded = now.find((s) => s.confidence < UNCERTAINTY_CONFIG.decayFloor);
      if (faded) {
        done.add(u.uncertaintyId);
        out.resolutions.push({ uncertaintyId: u.uncertaintyId, strategy: 'decayed', state: 'decayed', detail: `${valueWords(faded.value)} decayed to ${faded.confidence.toFixed(2)}`, winnerId: '', loserId: faded.id });
        continue;
      }
      const won = evidenceWinner(now);
      if (won) {
        done.add(u.uncertaintyId);
        out.resolutions.push({ uncertaintyId: u.uncertaintyId, strategy: 'evidence_resolved', state: 'resolved', detail: `${valueWords(won.winner.value)} holds with the evidence`, winnerId: won.winner.id, loserId: won.loser.id });
        out.reliability.push({ side: won.winner, from: 'contradicted', to: 'reliable', reason: 'evidence_resolved', uncertaintyId: u.uncertaintyId });
        out.reliability.push({ side: won.loser, from: 'contradicted', to: 'superseded', reason: 'evidence_resolved', uncertaintyId: u.uncertaintyId });
      }
    }
    if (m.status !== 'ACTIVE') continue;
    const parsed = parseKey(m.key);
    // Episode vs trait: an event that takes the opposite stance on a preference's item.
    if (parsed?.type === 'PREFERENCE' && !covered(m.memoryId, 'contradiction')) {
      const item = valueWords(m.value).toLowerCase();
      for (const e of input.memories) {
        if (e.status !== 'ACTIVE' || e.type !== 'RELATIONSHIP_EVENT' || !e.value.toLowerCase().includes(item)) continue;
        out.pairsChecked += 1;
        const stance = stanceCue(e.value);
        if (!stance || stance === stanceOf(m.value)) continue;
        const a = sideOf(m);
        const b = sideOf(e);
        const context = surfaceContextOf(m.key, [m.value]);
        const id = input.newId(`${m.memoryId}|${e.memoryId}`);
        out.records.push({ uncertaintyId: id, type: 'contradiction', sides: [a, b], severity: severityOf(a.store, b.store), detectionContext: 'drift', reasoning: `${valueWords(m.value)} (${stanceOf(m.value)}) against an event that says "${valueWords(e.value)}"`, temporalSignal: false, surfaceContext: context.description, surfaceCues: context.cues, state: 'open', strategy: '', detail: '', sourceMessageIds: [m.sourceMessageId, e.sourceMessageId].filter(Boolean) });
        out.reliability.push({ side: a, from: m.reliability, to: 'contradicted', reason: 'contradiction', uncertaintyId: id });
        out.reliability.push({ side: b, from: e.reliability, to: 'contradicted', reason: 'contradiction', uncertaintyId: id });
        break;
      }
    }
    // "stale": a singleton fact not heard of for a long time.
    if (parsed?.type === 'FACT' && !covered(m.memoryId, 'stale') && input.at.getTime() - m.lastConfirmedAt.getTime() > UNCERTAINTY_CONFIG.staleAfterDays * DAY_MS) {
      const a = sideOf(m);
      const context = surfaceContextOf(m.key, [m.value]);
      out.records.push({ uncertaintyId: input.newId(`stale|${m.memoryId}|${m.lastConfirmedAt.toISOString()}`), type: 'stale', sides: [a], severity: severityOf(a.store, null), detectionContext: 'drift', reasoning: `not restated since ${m.lastConfirmedAt.toISOString().slice(0, 10)}`, temporalSignal: false, surfaceContext: context.description, surfaceCues: context.cues, state: 'open', strategy: '', detail: '', sourceMessageIds: [m.sourceMessageId].filter(Boolean) });
    }
  }
  return out;
}
