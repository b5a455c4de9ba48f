import { STAGES, type Stage } from '../config.js';
import { evaluateReply, openerNorm, replyTopics, segmentSentences, type GateVerdict } from '../gates/index.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY, type PersonaTemplate } from '../personas/library.js';
import {
  CHECK_IN_BODIES,
  CHECK_IN_INTENT,
  declineReason,
  FOLLOW_UP_FORMS,
  nudgeReliability,
  GREETINGS,
  NEUTRAL_OPENERS,
  NUDGE_FORMS,
  openQuestion,
  renderOrder,
  renderRetention,
  usableHints,
  weave,
  type RetentionInput,
  type RetentionMemory,
  type RetentionPersona,
} from './retention.js';

// PT01 Calm Listener: clean, no quirks, taboo POLITICS and RELIGION.
const PT01 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!;
const SLOT = new Date('2026-11-23T05:00:00Z');
const HOUR = 60 * 60 * 1000;

function personaOf(t: PersonaTemplate): RetentionPersona {
  const style = styleOf(t);
  return { hintTokens: t.lexicon_bias.hint_tokens, tabooSoftBounds: t.taboo_soft_bounds, lexiconBias: style.lexicon_bias, punctuationQuirks: style.punctuation_quirks };
}

function input(over: Partial<RetentionInput> = {}): RetentionInput {
  return {
    retentionId: '7d4a3a52-0d5e-4c49-9b3e-2f1a6c0e9a11',
    personaSeed: 12345,
    slot: SLOT,
    stage: 'FRIEND',
    localTime: '14:00',
    persona: personaOf(PT01),
    suppressedTopics: [],
    lastAssistant: null,
    memories: [],
    recentOpeners: [],
    ...over,
  };
}

function fact(key: string, value: string, over: Partial<RetentionMemory> = {}): RetentionMemory {
  return {
    memoryId: `m-${key}-${value}`,
    type: 'FACT',
    key,
    value,
    topicIds: ['WORK_SCHOOL'],
    confidence: 0.7,
    lastConfirmedAt: new Date('2026-11-20T00:00:00Z'),
    ...over,
  };
}

const questions = (t: string) => t.match(/[?？]/g)?.length ?? 0;

// The gates a proactive message must pass besides the persona bands (what the reactor checks).
function gates(t: PersonaTemplate, stage: Stage) {
  return (c: { text: string; surfacedMemoryIds: string[] }): GateVerdict[] =>
    evaluateReply({
      text: c.text,
      style: styleOf(t),
      stage,
      source: 'retention',
      surfaced: [],
      surfacedIds: c.surfacedMemoryIds,
      recallAsked: false,
      userInitiated: [],
      initiatedRecent: [],
      suppressedTopics: [],
      tabooSoftBounds: t.taboo_soft_bounds,
      recentAssistant: [],
      exempt: ['emoji_band', 'sentence_band', 'lexicon', 'punctuation_quirks'],
    });
}

describe('declining a planned message (§14.4, §14.0)', () => {
  const now = new Date('2026-11-23T06:00:00Z');
  const active = { userState: 'ACTIVE', proactiveMessagesEnabled: true, muteUntil: null };

  it('sends to an active user with proactive messages on and no mute', () => {
    expect(declineReason({ controls: active, now, chattedSinceSlot: false })).toBeNull();
  });

  it('stops on proactive off first, then a mute still running, then a user not active, then a message since the slot', () => {
    expect(declineReason({ controls: { ...active, proactiveMessagesEnabled: false, muteUntil: new Date(now.getTime() + HOUR) }, now, chattedSinceSlot: true })).toBe('proactive_disabled');
    expect(declineReason({ controls: { ...active, muteUntil: new Date(now.getTime() + 1) }, now, chattedSinceSlot: true })).toBe('muted');
    expect(declineReason({ controls: { ...active, userState: 'ONBOARDING' }, now, chattedSinceSlot: true })).toBe('not_active');
    expect(declineReason({ controls: undefined, now, chattedSinceSlot: false })).toBe('not_active');
    expect(declineReason({ controls: active, now, chattedSinceSlot: true })).toBe('user_interacted');
  });

  it('sends once the mute has passed (now > mute_until)', () => {
    expect(declineReason({ controls: { ...active, muteUntil: now }, now, chattedSinceSlot: false })).toBeNull();
    expect(declineReason({ controls: { ...active, muteUntil: new Date(now.getTime() - HOUR) }, now, chattedSinceSlot: false })).toBeNull();
  });
});

describe('the open question of the last assistant message', () => {
  it('is the last sentence when the message has exactly one "?", at its end', () => {
    expect(openQuestion("That's a real update on the game. What's next for you with the game?")).toBe("What's next for you with the game?");
    expect(openQuestion('How did that come about?')).toBe('How did that come about?');
    // Trailing emoji and spaces are not the end of the text.
    expect(openQuestion('Nice. How did it go? 🙂 ')).toBe('How did it go?');
  });

  it('is none with no question, two questions, or a question not at the end', () => {
    expect(openQuestion('I hear you. Take your time.')).toBeNull();
    expect(openQuestion('Really? What happened next?')).toBeNull();
    expect(openQuestion('What happened?? Tell me.')).toBeNull();
    expect(openQuestion('Was it fun? I hope so.')).toBeNull();
  });
});

describe('§14.5 step 1: FOLLOW-UP', () => {
  const question = "What's been the best part of the vacation so far?";
  const asked = { source: 'chat', text: `It sounds like the break has been good for you. ${question}`, createdAt: new Date(SLOT.getTime() - 24 * HOUR) };

  it('restates an unanswered question after 24 h in one softer sentence, with nothing new', () => {
    const r = renderRetention(input({ lastAssistant: asked }));
    expect(r.step).toBe('follow_up');
    expect(r.renders).toBeGreaterThanOrEqual(1);
    expect(r.text).toContain("what's been the best part of the vacation so far?");
    expect(replyTopics(question)).toEqual(['TRAVEL']);
    expect(segmentSentences(r.text)).toHaveLength(1);
    expect(questions(r.text)).toBe(1);
    expect(r.surfacedMemoryIds).toEqual([]);
    // The question's own topic and nothing else.
    expect(replyTopics(r.text)).toEqual(replyTopics(question));
  });

  it('every soft form is one sentence and one question, with no topic of its own', () => {
    for (const form of FOLLOW_UP_FORMS) {
      const text = weave('', form.replace('{q}', 'how did that come about?'), false);
      expect(segmentSentences(text)).toHaveLength(1);
      expect(questions(text)).toBe(1);
      expect(replyTopics(text)).toEqual([]);
    }
  });

  it('waits the full 24 h', () => {
    expect(renderRetention(input({ lastAssistant: { ...asked, createdAt: new Date(SLOT.getTime() - 24 * HOUR + 1) } })).step).not.toBe('follow_up');
  });

  it('needs exactly one question mark, at the end', () => {
    expect(renderRetention(input({ lastAssistant: { ...asked, text: 'Wait, really? How did that come about?' } })).step).not.toBe('follow_up');
    expect(renderRetention(input({ lastAssistant: { ...asked, text: 'How did that come about? Tell me whenever.' } })).step).not.toBe('follow_up');
  });

  it('does not follow up once the user replied (the last assistant message is the newer reply) nor on a proactive message', () => {
    const replied = { source: 'chat', text: 'That sounds like a lovely day. I am glad you told me.', createdAt: new Date(SLOT.getTime() - 30 * HOUR) };
    const r = renderRetention(input({ lastAssistant: replied }));
    expect(r.step).toBe('check_in');
    expect(r.trace[0]).toMatch(/^follow_up: .*exactly one question/);
    expect(renderRetention(input({ lastAssistant: { ...asked, source: 'retention' } })).step).not.toBe('follow_up');
  });

  it('skips a question on a suppressed, taboo or sensitive topic', () => {
    const on = (text: string) => ({ ...asked, text });
    // Suppressed by the user.
    expect(renderRetention(input({ lastAssistant: asked, suppressedTopics: ['TRAVEL'] })).step).not.toBe('follow_up');
    // PT01's taboo_soft_bounds.
    const politics = renderRetention(input({ lastAssistant: on('Did you follow the election news this week?') }));
    expect(politics.step).not.toBe('follow_up');
    expect(politics.trace[0]).toMatch(/POLITICS/);
    // §14.6 sensitive TopicIDs.
    expect(renderRetention(input({ lastAssistant: on('How has the therapy been going for you?') })).step).not.toBe('follow_up');
    expect(renderRetention(input({ lastAssistant: on('Did the doctor say anything new?') })).step).not.toBe('follow_up');
  });
});

describe('§14.5 step 2: LIGHT CONTEXT NUDGE', () => {
  const nurse = fact('fact:occupation', 'art teacher');

  it('references exactly one allowlisted fact at FRIEND and CLOSE_FRIEND', () => {
    for (const stage of ['FRIEND', 'CLOSE_FRIEND'] as const) {
      const r = renderRetention(input({ stage, memories: [nurse] }));
      expect(r).toMatchObject({ step: 'context_nudge', surfacedMemoryIds: [nurse.memoryId] });
      expect(r.text).toContain('art teacher');
      expect(segmentSentences(r.text).length).toBeLessThanOrEqual(2);
      expect(questions(r.text)).toBeLessThanOrEqual(1);
    }
  });

  it('never nudges an ACQUAINTANCE (or STRANGER)', () => {
    for (const stage of ['ACQUAINTANCE', 'STRANGER'] as const) {
      const r = renderRetention(input({ stage, memories: [nurse] }));
      expect(r).toMatchObject({ step: 'check_in', surfacedMemoryIds: [] });
      expect(r.trace[1]).toBe(`context_nudge: stage ${stage}`);
    }
  });

  it('uses only the allowlist: never home_city, current_city, other FACT keys, preferences, EMOTIONAL_PATTERN or events', () => {
    const memories: RetentionMemory[] = [
      fact('fact:home_city', 'Busan', { topicIds: [] }),
      fact('fact:current_city', 'Seoul', { topicIds: [] }),
      fact('fact:pet_name', 'Mochi', { topicIds: [] }),
      { ...fact('pref:food', 'like|sushi', { topicIds: [] }), type: 'PREFERENCE' },
      { ...fact('pattern:stress_trigger_work', 'deadlines'), type: 'EMOTIONAL_PATTERN' },
      { ...fact('event:work:2026_11:promotion', 'got promoted'), type: 'RELATIONSHIP_EVENT' },
    ];
    const r = renderRetention(input({ memories }));
    expect(r).toMatchObject({ step: 'check_in', surfacedMemoryIds: [] });
    for (const m of memories) expect(r.text).not.toContain(m.value);
  });

  it('never a fact tied to a sensitive, suppressed or taboo topic, nor one whose words touch one', () => {
    expect(renderRetention(input({ memories: [fact('fact:occupation', 'nurse', { topicIds: ['WORK_SCHOOL', 'MEDICAL_HEALTH'] })] })).step).toBe('check_in');
    expect(renderRetention(input({ memories: [nurse], suppressedTopics: ['WORK_SCHOOL'] })).step).toBe('check_in');
    // PT01's taboo RELIGION, through the value's own words.
    expect(renderRetention(input({ memories: [fact('fact:occupation', 'church organist', { topicIds: ['WORK_SCHOOL'] })] })).step).toBe('check_in');
    expect(renderRetention(input({ memories: [fact('fact:occupation', 'doctor', { topicIds: ['WORK_SCHOOL'] })] })).step).toBe('check_in');
  });

  it('takes the most recently confirmed usable fact, and only that one', () => {
    const older = fact('fact:major', 'computer science', { lastConfirmedAt: new Date('2026-11-01T00:00:00Z') });
    const newer = fact('fact:school', 'Seoul National University', { lastConfirmedAt: new Date('2026-11-21T00:00:00Z') });
    const sensitiveNewest = fact('fact:home_city', 'Busan', { lastConfirmedAt: new Date('2026-11-22T00:00:00Z'), topicIds: [] });
    const r = renderRetention(input({ memories: [older, sensitiveNewest, newer] }));
    expect(r).toMatchObject({ step: 'context_nudge', surfacedMemoryIds: [newer.memoryId] });
    expect(r.text).toContain('Seoul National University');
    expect(r.text).not.toContain('computer science');
  });

  it('never names a memory that is not reliable (issue 17, Context 3): the next reliable one, or a check-in', () => {
    const newer = fact('fact:school', 'Hanbit University', { lastConfirmedAt: new Date('2026-11-21T00:00:00Z') });
    for (const reliability of ['uncertain', 'contradicted', 'superseded']) {
      expect(renderRetention(input({ memories: [{ ...nurse, reliability }] }))).toMatchObject({ step: 'check_in', surfacedMemoryIds: [] });
      const r = renderRetention(input({ memories: [nurse, { ...newer, reliability }] }));
      expect(r).toMatchObject({ step: 'context_nudge', surfacedMemoryIds: [nurse.memoryId] });
      expect(r.text).not.toContain('Hanbit');
    }
    expect(renderRetention(input({ memories: [{ ...nurse, reliability: 'contradicted' }] })).trace[1]).toBe('context_nudge: no allowlisted, non-sensitive, reliable ACTIVE fact');
    // reliable, or not said (a memory service before issue 17): named
    for (const reliability of ['reliable', '', undefined]) expect(renderRetention(input({ memories: [{ ...nurse, reliability }] })).step).toBe('context_nudge');
  });

  it("reads a memory's reliability from uncertainty's answer and memory's snippet: either one's doubt holds", () => {
    expect(nudgeReliability('reliable', 'reliable')).toBe('reliable');
    expect(nudgeReliability(undefined, '')).toBe('reliable');
    expect(nudgeReliability('contradicted', 'reliable')).toBe('contradicted');
    // uncertainty down or the memory not listed: the snippet's state
    expect(nudgeReliability(undefined, 'superseded')).toBe('superseded');
    expect(nudgeReliability('reliable', 'uncertain')).toBe('uncertain');
  });

  it('speaks of a known timezone by the part of the user day, never a place', () => {
    const tz = fact('fact:timezone', 'Asia/Seoul', { topicIds: [] });
    const r = renderRetention(input({ memories: [tz], localTime: '19:00' }));
    expect(r).toMatchObject({ step: 'context_nudge', surfacedMemoryIds: [tz.memoryId] });
    expect(r.text).toMatch(/evening/);
    expect(r.text).not.toMatch(/Seoul|Asia/);
    // Without the local time there is nothing light to say about it.
    expect(renderRetention(input({ memories: [tz], localTime: '' })).step).toBe('check_in');
  });

  it('skips a value too long or odd to name in passing', () => {
    expect(renderRetention(input({ memories: [fact('fact:occupation', 'teacher. Ignore that and ask me anything?')] })).step).toBe('check_in');
  });

  it('every nudge form is at most 2 sentences and 1 question, with no topic of its own', () => {
    for (const [key, forms] of Object.entries(NUDGE_FORMS)) {
      for (const form of forms) {
        const text = weave('Hey', form.replace('{v}', 'design').replace('{a}', 'a').replace('{part}', 'afternoon'), false);
        expect(segmentSentences(text).length).toBeLessThanOrEqual(2);
        expect(questions(text)).toBeLessThanOrEqual(1);
        expect([key, replyTopics(text)]).toEqual([key, []]);
      }
    }
  });
});

describe('§14.5 step 3: GENERIC-SAFE CHECK-IN', () => {
  it('has a stage intent: low-pressure hello, quick check-in, warm check-in', () => {
    expect(renderRetention(input({ stage: 'ACQUAINTANCE' })).intent).toBe('low-pressure hello');
    expect(renderRetention(input({ stage: 'FRIEND' })).intent).toBe('quick check-in');
    expect(renderRetention(input({ stage: 'CLOSE_FRIEND' })).intent).toBe('warm check-in');
    expect(renderRetention(input({ stage: 'CLOSE_FRIEND' })).step).toBe('check_in');
  });

  it('every variant through every lead of every persona template: ≤ 2 sentences, ≤ 1 question, no topic, and the §10 gates pass', () => {
    let checked = 0;
    for (const t of PERSONA_LIBRARY) {
      const persona = personaOf(t);
      const lowercase = persona.punctuationQuirks.includes('lowercase');
      for (const stage of STAGES) {
        const check = gates(t, stage);
        for (const lead of [...GREETINGS[stage], ...usableHints(persona, stage)]) {
          for (const body of CHECK_IN_BODIES[CHECK_IN_INTENT[stage]]!) {
            const text = weave(lead, body, lowercase);
            expect(segmentSentences(text).length).toBeLessThanOrEqual(2);
            expect(questions(text)).toBeLessThanOrEqual(1);
            expect(replyTopics(text)).toEqual([]);
            expect([text, check({ text, surfacedMemoryIds: [] }).filter((v) => !v.pass).map((v) => v.detail)]).toEqual([text, []]);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('weaves a persona hint token in for some messages, and only tokens the persona may say at that stage', () => {
    const PT05 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT05')!;
    // PT05's tokens react to something said ("busted", "oh please"): none opens a message.
    expect(usableHints(personaOf(PT05), 'FRIEND')).toEqual([]);
    // PT02's "proud of you" never leads; "aw" and "sending warmth" do.
    const PT02 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT02')!;
    expect(usableHints(personaOf(PT02), 'FRIEND')).toEqual(['aw', 'sending warmth']);
    // PT06 is internet shorthand: "ngl" and "bestie" lead, "lmao" does not.
    const PT06 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT06')!;
    expect(usableHints(personaOf(PT06), 'ACQUAINTANCE')).toEqual(['ngl', 'bestie']);
    const texts = Array.from({ length: 60 }, (_, i) => renderRetention(input({ retentionId: `r-${i}` })).text);
    expect(texts.some((t) => PT01.lexicon_bias.hint_tokens.some((h) => t.toLowerCase().startsWith(h)))).toBe(true);
    expect(new Set(texts).size).toBeGreaterThan(5);
  });

  it('lowercases the whole message for a persona with the lowercase quirk', () => {
    const PT10 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT10')!;
    const r = renderRetention(input({ persona: personaOf(PT10) }));
    expect(r.text).toBe(r.text.toLowerCase());
  });

  it('is deterministic: the same plan and persona give the same message and seed', () => {
    expect(renderRetention(input())).toEqual(renderRetention(input()));
    expect(renderRetention(input({ personaSeed: 1 })).seed).not.toBe(renderRetention(input({ personaSeed: 2 })).seed);
  });
});

describe('§14.5 anti-repetition', () => {
  it('re-renders with another lead and variant when the opener repeats one of the last 10', () => {
    const first = renderRetention(input());
    expect(first.renders).toBe(1);
    const second = renderRetention(input({ recentOpeners: [first.opener] }));
    expect(second.renders).toBe(2);
    expect(second.opener).not.toBe(first.opener);
    expect(second.text.split(',')[0]).not.toBe(first.text.split(',')[0]);
  });

  it('compares only the last 10 retention openers', () => {
    const first = renderRetention(input());
    const old = [...Array.from({ length: 10 }, (_, i) => `opener ${i}`), first.opener];
    expect(renderRetention(input({ recentOpeners: old })).renders).toBe(1);
  });

  it('takes at most 1 + 5 renders, then the shortest neutral opener not used lately', () => {
    const recent: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const r = renderRetention(input({ recentOpeners: recent }));
      expect(r.renders).toBe(i);
      expect(recent).not.toContain(r.opener);
      recent.unshift(r.opener);
    }
    const fallback = renderRetention(input({ recentOpeners: recent }));
    const shortest = [...NEUTRAL_OPENERS].sort((a, b) => a.length - b.length)[0]!;
    expect(fallback).toMatchObject({ step: 'check_in', renders: 0, text: shortest, surfacedMemoryIds: [] });
    // The shortest itself was sent lately: the next shortest.
    const again = renderRetention(input({ recentOpeners: [openerNorm(shortest), ...recent] }));
    expect(again.renders).toBe(0);
    expect(again.text).toBe([...NEUTRAL_OPENERS].sort((a, b) => a.length - b.length)[1]);
  });

  it('falls back the same way for a nudge whose renders all repeat, surfacing nothing', () => {
    const nudge = (recentOpeners: string[]) => renderRetention(input({ memories: [fact('fact:major', 'history')], recentOpeners }));
    const recent: string[] = [];
    for (let i = 0; i < 6; i++) recent.unshift(nudge(recent).opener);
    expect(nudge(recent)).toMatchObject({ step: 'context_nudge', renders: 0, surfacedMemoryIds: [] });
  });

  it('re-renders when a §10 gate fails, too', () => {
    const first = renderRetention(input());
    const r = renderRetention(
      input({ check: (c) => [{ gate: 'repeated_opener', pass: openerNorm(c.text) !== first.opener, detail: '', measured: {} }] }),
    );
    expect(r.renders).toBe(2);
  });

  it('the neutral openers: one sentence, no question, no topic, distinct openers, more of them than the openers remembered', () => {
    expect(new Set(NEUTRAL_OPENERS.map(openerNorm)).size).toBe(NEUTRAL_OPENERS.length);
    expect(NEUTRAL_OPENERS.length).toBeGreaterThan(10);
    for (const t of NEUTRAL_OPENERS) {
      expect(segmentSentences(t)).toHaveLength(1);
      expect(questions(t)).toBe(0);
      expect(replyTopics(t)).toEqual([]);
    }
  });

  it('orders renders so that each next one changes the lead, and never repeats a pair', () => {
    const order = renderOrder(6, 5, 99, 30);
    expect(new Set(order.map(([b, l]) => `${b}:${l}`)).size).toBe(30);
    for (let i = 1; i < 6; i++) expect(order[i]![1]).not.toBe(order[i - 1]![1]);
    expect(renderOrder(6, 5, 99, 6)).toEqual(order.slice(0, 6));
  });
});
