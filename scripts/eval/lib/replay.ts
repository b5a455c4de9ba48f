// One LoCoMo conversation lived through the HTTP API on the virtual clock: a new
// user onboards, then sends speaker_a's lines session after session, the clock
// moved by the gaps between the sessions' dates. Every turn's reply is read
// back from the admin decision trail. An evaluation that asks more of the same
// user afterwards (eval:recall) continues in the same conversation through
// `afterSessions`.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { CountingApi, UnexpectedBodyError } from './api.js';
import { sessionAdvances, truncateMessage, type PlannedConversation } from './locomo.js';
import { checkStyle, type StyleCheck } from './style.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a persona or an open turn may take to show up. */
const SETTLE_TIMEOUT_MS = 10_000;
const SETTLE_INTERVAL_MS = 100;
/** Tokens are signed again this long (virtual) after the last sign-in: dev tokens live 24 h. */
const SIGN_IN_AGAIN_MS = 12 * 60 * 60 * 1000;

/** Onboarding answers that pass §4.1.1; the name is the LoCoMo speaker's. */
export function onboardingAnswers(preferredName: string) {
  return {
    preferred_name: preferredName,
    age_band: '25-34',
    country_or_region: 'US',
    occupation_category: 'working',
    client_timezone: 'America/New_York',
    proactive_messages_enabled: true,
    suppressed_topics: [],
  };
}

/** The outcomes of a turn (API.md; the admin trail's `outcome`). */
export const OUTCOMES = ['draft', 'rewrite', 'fallback', 'refusal', 'crisis_safe'] as const;
/** Outcomes whose reply the §10 gates judged (a composed reply, not a fixed one). */
const COMPOSED: Readonly<Record<string, number>> = { draft: 0, rewrite: 1, fallback: 2 };

const tokenBody = z.object({ token: z.string(), user_id: z.string() });
const clockBody = z.object({ now: z.string() });
const styleParams = z.looseObject({ emoji_freq: z.string(), msg_length_pref: z.string() });
const profileBody = z.looseObject({
  persona: z.looseObject({ template_id: z.string(), core_archetype: z.string(), stable_style_params: styleParams }).nullable(),
});
const messageBody = z.looseObject({
  routing: z.looseObject({ pipeline: z.string() }),
  assistant: z.looseObject({ text: z.string() }),
});
const relationshipBody = z.looseObject({ relationship_stage: z.string(), rapport_score: z.number(), sessions_count: z.number() });
// GET /v1/admin/users/{user_id}/trust (API.md).
const trustBody = z.looseObject({
  actors: z.array(z.looseObject({ actor: z.string(), trust: z.number(), updates: z.number() })),
  outcomes: z.array(z.looseObject({ horizon: z.string(), reward: z.number() })),
  feedback: z.array(z.looseObject({ tag: z.string(), actor: z.string(), applied: z.boolean(), reason: z.string() })),
});
// Protobuf JSON: camelCase names, and default values (0, "", false) left out.
const gateVerdict = z.looseObject({ gate: z.string(), pass: z.boolean().optional(), passNumber: z.number().optional(), detail: z.string().optional() });
const relationshipState = z.looseObject({ stage: z.string().optional(), rapportScore: z.number().optional(), sessionsCount: z.number().optional() });
// The trail's `retrieval` is the orchestrator's Retrieval message as protobuf JSON.
const retrievedMemory = z.looseObject({
  memoryId: z.string().optional(),
  type: z.string().optional(),
  memoryKey: z.string().optional(),
  memoryValue: z.string().optional(),
  via: z.string().optional(),
  relevance: z.number().optional(),
});
const trailBody = z.looseObject({
  outcome: z.string().nullable(),
  surfaced_memory_ids: z.array(z.string()),
  retrieval: z.looseObject({ memories: z.array(retrievedMemory).optional() }).nullable(),
  gates: z.array(gateVerdict),
  relationship: z.looseObject({ next: relationshipState.optional(), promotedFrom: z.string().optional(), promotionBlockedBy: z.string().optional() }).nullable(),
  llm: z.looseObject({ final: z.looseObject({ provider: z.string().optional(), model: z.string().optional() }).nullable() }),
});

export interface RelationshipSnapshot {
  stage: string;
  rapport: number;
  sessions: number;
}

export interface TurnRecord {
  sampleId: string;
  /** 1-based user turn within the conversation. */
  turn: number;
  /** LoCoMo's session number. */
  session: number;
  diaId: string;
  /** The message_id the line was sent with: GET /v1/admin/turns/{message_id} shows its trail. */
  messageId?: string;
  /** Virtual days since the conversation's first message. */
  day: number;
  truncated: boolean;
  ok: boolean;
  latencyMs?: number;
  trailMs?: number;
  pipeline?: string;
  outcome?: string;
  /** Gates that failed on the draft (passNumber 0) of a composed reply, with the gate's own detail. */
  draftFailures: { gate: string; detail: string }[];
  /** Whether the draft was judged at all (a composed reply). */
  draftJudged: boolean;
  relationship?: RelationshipSnapshot & { promotedFrom?: string; promotionBlockedBy?: string };
  style?: StyleCheck;
  /** The orchestrator's own verdicts on the reply it sent, for the two bands the eval measures too. */
  sentGate?: { emoji?: boolean; sentences?: boolean };
  /** The reply, kept only when a band check fails or disagrees with the orchestrator. */
  reply?: string;
  provider?: string;
}

export interface Promotion {
  from: string;
  to: string;
  turn: number;
  day: number;
}

export interface ConversationResult {
  sampleId: string;
  user: string;
  persona?: { templateId: string; archetype: string; msgLengthPref: string; emojiFreq: string };
  plannedTurns: number;
  /** User turns that got their reply and trail. */
  turnsOk: number;
  /** LoCoMo sessions replayed (at least one line sent). */
  sessions: number;
  /** Virtual days from the first message to the last one sent. */
  days: number;
  final?: RelationshipSnapshot;
  /** The last trail's `relationship.next` differs from GET /v1/me/relationship at the end. */
  finalMismatch: boolean;
  promotions: Promotion[];
  /** Why the last turn did not promote (§11.5), "" when it did or the top stage is reached. */
  blockedAtEnd: string;
  clampedGaps: number;
  truncations: number;
  /** Why the conversation stopped early, if it did. */
  aborted?: string;
  /** What trust learned from the conversation (the admin trust view at the end). */
  trust?: TrustSummary;
  turns: TurnRecord[];
}

/** The admin trust view at the end of a conversation, counted. */
export interface TrustSummary {
  /** T and the number of updates of each actor. */
  actors: Record<string, { trust: number; updates: number }>;
  outcomes: number;
  meanReward: number;
  /** Tags by `actor tag` (e.g. "user +keep"), and how many of them counted. */
  tags: Record<string, number>;
  counted: number;
}

/** A memory a turn retrieved, as its trail records it. */
export interface RetrievedMemory {
  memoryId: string;
  type: string;
  memoryKey: string;
  memoryValue: string;
  /** structured | vector */
  via: string;
  /** How much the memory is about the message, 0..1, as the memory service answered (0 when not recorded). */
  relevance: number;
}

/** What one turn sent and got back, beyond what {@link TurnRecord} keeps. */
export interface TurnExchange {
  messageId: string;
  /** The user's text as sent. */
  text: string;
  /** The assistant's reply. */
  reply: string;
  /** The memories the reply surfaced (the trail's `surfaced_memory_ids`). */
  surfacedMemoryIds: string[];
  /** The memories the turn retrieved, with their values (the trail's `retrieval.memories`). */
  retrieved: RetrievedMemory[];
}

/** The replayed user, for asking more of them after the last session. */
export interface ReplaySession {
  userId: string;
  /** Moves the virtual clock (signing in again when the tokens near their 24 h); resolves with the new time, epoch ms. */
  advance(seconds: number): Promise<number>;
  /**
   * Sends one more message in the same conversation and reads its trail, as a
   * replayed line is; the record is not added to the conversation's turns.
   * A failed turn resolves without an exchange (the failure is counted by the API).
   */
  send(text: string, label: { diaId: string; session: number }): Promise<{ rec: TurnRecord; exchange?: TurnExchange }>;
  /** A GET as the user or as an admin. */
  get<T>(path: string, as?: 'user' | 'admin'): Promise<T>;
}

export interface ReplayOptions {
  api: CountingApi;
  /** Virtual seconds between two lines of one session. */
  lineGapSeconds: number;
  /** Called after every replayed line (sent or failed; a failed one has no exchange). */
  onTurn?: (rec: TurnRecord, exchange: TurnExchange | undefined) => void;
  /** Checked before every turn: true stops the conversation (Ctrl-C). */
  stopRequested?: () => boolean;
  /** Runs after the last session (unless the replay stopped on an error), before the final relationship read. */
  afterSessions?: (session: ReplaySession) => Promise<void>;
}

function parseBody<T>(api: CountingApi, schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  api.countError(`${what} → 200 UNEXPECTED_BODY`);
  throw new UnexpectedBodyError(`${what}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
}

async function settle<T>(get: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let v = await get();
  while (!done(v) && Date.now() < deadline) {
    await sleep(SETTLE_INTERVAL_MS);
    v = await get();
  }
  return v;
}

/** Replays one planned conversation; failures of single turns are recorded and the replay goes on. */
export async function replayConversation(plan: PlannedConversation, opts: ReplayOptions): Promise<ConversationResult> {
  const { api } = opts;
  const result: ConversationResult = {
    sampleId: plan.sampleId,
    user: plan.user,
    plannedTurns: plan.userTurns,
    turnsOk: 0,
    sessions: 0,
    days: 0,
    finalMismatch: false,
    promotions: [],
    blockedAtEnd: '',
    clampedGaps: 0,
    truncations: plan.truncations,
    turns: [],
  };
  const token = async (body: object) => parseBody(api, tokenBody, await api.call('POST', '/v1/dev/token', { body }), 'POST /v1/dev/token');
  // The dev clock needs a token: the user's own.
  const advance = async (seconds: number) =>
    Date.parse(parseBody(api, clockBody, await api.call('POST', '/v1/dev/clock', { token: me.token, body: { advance_seconds: seconds } }), 'POST /v1/dev/clock').now);
  // Dev tokens expire on the virtual clock after 24 h: sign in again after every jump.
  const signIn = async () => {
    me = await token({ user_id: me.user_id });
    admin = await token({ roles: ['admin'] });
  };

  // Onboarding: a dev token, the user, the answers, then the persona a moment later.
  let me: { token: string; user_id: string };
  let admin: { token: string };
  let style: z.infer<typeof styleParams>;
  let startedAt: number;
  try {
    me = await token({});
    admin = await token({ roles: ['admin'] });
    await api.call('POST', '/v1/me', { token: me.token, body: {} });
    await api.call('PUT', '/v1/me/onboarding', { token: me.token, body: onboardingAnswers(plan.user) });
    const profile = await settle(
      async () => parseBody(api, profileBody, await api.call('GET', '/v1/me', { token: me.token }), 'GET /v1/me'),
      (p) => p.persona !== null,
    );
    if (!profile.persona) throw new Error(`no persona within ${SETTLE_TIMEOUT_MS / 1000} s of onboarding`);
    style = profile.persona.stable_style_params;
    result.persona = {
      templateId: profile.persona.template_id,
      archetype: profile.persona.core_archetype,
      msgLengthPref: style.msg_length_pref,
      emojiFreq: style.emoji_freq,
    };
    startedAt = Date.parse(parseBody(api, clockBody, await api.call('GET', '/v1/dev/clock', { token: me.token }), 'GET /v1/dev/clock').now);
  } catch (err) {
    result.aborted = `onboarding failed: ${(err as Error).message}`;
    return result;
  }

  const { advances, clampedGaps } = sessionAdvances(plan.sessions, (lines) => Math.max(0, lines - 1) * opts.lineGapSeconds);
  result.clampedGaps = clampedGaps;
  const conversationId = randomUUID();
  let now = startedAt;
  let signedInAt = startedAt;
  let turnNo = 0;
  let stage = 'STRANGER';
  let lastState: RelationshipSnapshot | undefined;

  try {
    for (const [si, session] of plan.sessions.entries()) {
      if (opts.stopRequested?.()) break;
      if (si > 0) {
        now = await advance(advances[si]!);
        await signIn();
        signedInAt = now;
      }
      result.sessions++;
      for (const [li, line] of session.lines.entries()) {
        if (opts.stopRequested?.()) break;
        if (li > 0 && opts.lineGapSeconds > 0) now = await advance(opts.lineGapSeconds);
        turnNo++;
        const rec = newRecord(plan.sampleId, turnNo, session.number, line.diaId, (now - startedAt) / DAY_MS, line.truncated);
        result.turns.push(rec);
        result.days = rec.day;
        let exchange: TurnExchange | undefined;
        try {
          exchange = await sendTurn(api, rec, { token: me.token, adminToken: admin.token, conversationId, text: line.text, style });
        } catch {
          // Counted by the API wrapper; the next line goes on.
        }
        if (rec.ok) result.turnsOk++;
        if (rec.relationship) {
          const next = rec.relationship;
          result.blockedAtEnd = next.promotionBlockedBy ?? '';
          if (next.promotedFrom) result.promotions.push({ from: next.promotedFrom, to: next.stage, turn: rec.turn, day: rec.day });
          else if (next.stage !== stage && lastState) result.promotions.push({ from: stage, to: next.stage, turn: rec.turn, day: rec.day });
          stage = next.stage;
          lastState = { stage: next.stage, rapport: next.rapport, sessions: next.sessions };
        }
        opts.onTurn?.(rec, exchange);
      }
    }
  } catch (err) {
    result.aborted = `stopped at turn ${turnNo}: ${(err as Error).message}`;
  }

  if (opts.afterSessions && result.aborted === undefined) {
    let extra = 0;
    const session: ReplaySession = {
      userId: me.user_id,
      advance: async (seconds) => {
        now = await advance(seconds);
        if (now - signedInAt >= SIGN_IN_AGAIN_MS) {
          await signIn();
          signedInAt = now;
        }
        return now;
      },
      send: async (text, label) => {
        const cut = truncateMessage(text);
        const rec = newRecord(plan.sampleId, turnNo + ++extra, label.session, label.diaId, (now - startedAt) / DAY_MS, cut.truncated);
        try {
          const exchange = await sendTurn(api, rec, { token: me.token, adminToken: admin.token, conversationId, text: cut.text, style });
          return { rec, exchange };
        } catch {
          return { rec };
        }
      },
      get: async <T>(path: string, as: 'user' | 'admin' = 'user') => api.call<T>('GET', path, { token: as === 'admin' ? admin.token : me.token }),
    };
    try {
      await opts.afterSessions(session);
    } catch (err) {
      result.aborted = `stopped after the replay: ${(err as Error).message}`;
    }
  }

  try {
    const rel = parseBody(api, relationshipBody, await api.call('GET', '/v1/me/relationship', { token: me.token }), 'GET /v1/me/relationship');
    result.final = { stage: rel.relationship_stage, rapport: rel.rapport_score, sessions: rel.sessions_count };
    result.finalMismatch =
      lastState !== undefined && (lastState.stage !== result.final.stage || lastState.rapport !== result.final.rapport || lastState.sessions !== result.final.sessions);
  } catch {
    result.final = lastState;
  }
  try {
    const t = parseBody(api, trustBody, await api.call('GET', `/v1/admin/users/${me.user_id}/trust`, { token: admin.token }), 'GET /v1/admin/users/{user_id}/trust');
    const tags: Record<string, number> = {};
    for (const f of t.feedback) tags[`${f.actor} ${f.tag}`] = (tags[`${f.actor} ${f.tag}`] ?? 0) + 1;
    result.trust = {
      actors: Object.fromEntries(t.actors.map((a) => [a.actor, { trust: a.trust, updates: a.updates }])),
      outcomes: t.outcomes.length,
      meanReward: t.outcomes.length ? t.outcomes.reduce((s, o) => s + o.reward, 0) / t.outcomes.length : 0,
      tags,
      counted: t.feedback.filter((f) => f.applied).length,
    };
  } catch {
    // Counted as an API error already; the conversation's other figures stand.
  }
  return result;
}

function newRecord(sampleId: string, turn: number, session: number, diaId: string, day: number, truncated: boolean): TurnRecord {
  return { sampleId, turn, session, diaId, day, truncated, ok: false, draftFailures: [], draftJudged: false };
}

async function sendTurn(
  api: CountingApi,
  rec: TurnRecord,
  t: { token: string; adminToken: string; conversationId: string; text: string; style: z.infer<typeof styleParams> },
): Promise<TurnExchange> {
  const messageId = randomUUID();
  rec.messageId = messageId;
  const path = `/v1/conversations/${t.conversationId}/messages`;
  const started = performance.now();
  const raw = await api.call('POST', path, { token: t.token, body: { message_id: messageId, text: t.text } });
  rec.latencyMs = performance.now() - started;
  const reply = parseBody(api, messageBody, raw, `POST ${path}`);
  rec.pipeline = reply.routing.pipeline;

  const trailStarted = performance.now();
  const trailPath = `/v1/admin/turns/${messageId}`;
  const trail = await settle(
    async () => parseBody(api, trailBody, await api.call('GET', trailPath, { token: t.adminToken }), `GET ${trailPath}`),
    (x) => x.outcome !== null,
  );
  rec.trailMs = performance.now() - trailStarted;
  rec.ok = true;
  rec.outcome = trail.outcome ?? 'open';
  if (trail.llm.final?.provider) rec.provider = `${trail.llm.final.provider}/${trail.llm.final.model ?? '?'}`;

  const sentPass = COMPOSED[rec.outcome];
  if (sentPass !== undefined) {
    rec.draftJudged = true;
    rec.draftFailures = trail.gates.filter((g) => (g.passNumber ?? 0) === 0 && g.pass !== true).map((g) => ({ gate: g.gate, detail: g.detail ?? '' }));
    const sent = trail.gates.filter((g) => (g.passNumber ?? 0) === sentPass);
    const verdict = (name: string) => {
      const g = sent.find((x) => x.gate === name);
      return g === undefined ? undefined : g.pass === true;
    };
    rec.sentGate = { emoji: verdict('emoji_band'), sentences: verdict('sentence_band') };
  }
  const next = trail.relationship?.next;
  if (next) {
    rec.relationship = {
      stage: next.stage ?? '',
      rapport: next.rapportScore ?? 0,
      sessions: next.sessionsCount ?? 0,
      ...(trail.relationship?.promotedFrom ? { promotedFrom: trail.relationship.promotedFrom } : {}),
      ...(trail.relationship?.promotionBlockedBy ? { promotionBlockedBy: trail.relationship.promotionBlockedBy } : {}),
    };
  }

  const text = reply.assistant.text;
  rec.style = checkStyle(text, t.style);
  const disagrees =
    (rec.sentGate?.emoji !== undefined && rec.sentGate.emoji !== rec.style.emojiOk) ||
    (rec.sentGate?.sentences !== undefined && rec.sentGate.sentences !== rec.style.sentencesOk);
  if (!rec.style.emojiOk || !rec.style.sentencesOk || !rec.style.strictSentencesOk || disagrees) rec.reply = text;
  return {
    messageId,
    text: t.text,
    reply: text,
    surfacedMemoryIds: trail.surfaced_memory_ids,
    retrieved: (trail.retrieval?.memories ?? []).map((m) => ({
      memoryId: m.memoryId ?? '',
      type: m.type ?? '',
      memoryKey: m.memoryKey ?? '',
      memoryValue: m.memoryValue ?? '',
      via: m.via ?? '',
      relevance: m.relevance ?? 0,
    })),
  };
}
