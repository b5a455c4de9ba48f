import { STAGES } from '../config.js';
import { evaluateReply, type GateVerdict } from '../gates/index.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { personaConstraints } from '../turn/constraints.js';
import { planResponse, type PlannedMemory } from '../turn/plan.js';
import { fallbackReply, memoryPhrase, renderPlan, statedWhen } from './offline.js';

const PIPELINES = ['FRIEND_CHAT', 'EMOTIONAL_SUPPORT', 'INFO_QA', 'ONBOARDING_CHAT'] as const;

function planFor(t: (typeof PERSONA_LIBRARY)[number], stage: (typeof STAGES)[number], pipeline: string, opts: { topics?: string[]; memories?: PlannedMemory[]; recall?: boolean; tokens?: string[] } = {}) {
  const style = styleOf(t);
  const constraints = personaConstraints({
    style,
    template: t,
    stage,
    suppressedTopics: [],
    initiatedNow: opts.topics ?? [],
    initiatedRecent: opts.topics ?? [],
    previousAskedQuestion: false,
  });
  const plan = planResponse({
    pipeline,
    source: 'chat',
    isQuestion: pipeline === 'INFO_QA',
    emotion: pipeline === 'EMOTIONAL_SUPPORT' ? { valence: -0.7, intensity: 0.8, tags: ['strong_negative'] } : { valence: 0, intensity: 0, tags: [] },
    constraints,
    initiatedNow: opts.topics ?? [],
    initiatedRecent: opts.topics ?? [],
    suppressedTopics: [],
    userTokens: opts.tokens ?? ['sushi', 'work'],
    memories: opts.memories ?? [],
    recallAsked: opts.recall ?? false,
    directness: style.directness_level,
  });
  return { style, plan };
}

/**
 * §10.5 read as literally as it can be: any non-blank segment is a sentence and
 * every whitespace token a word (so an emoji counts). The renderer stays in band
 * under this reading too, so no auditor's reading of the spec finds it out of band.
 */
function strictSentenceBand(text: string, pref: string): string {
  const segments = text.split(/[.!?…。．！？｡]+/u).map((x) => x.trim()).filter(Boolean);
  const avg = segments.reduce((n, x) => n + x.split(/\s+/).length, 0) / segments.length;
  const band = { short: [1, 3, 0, 14], medium: [2, 5, 10, 22], long: [3, 8, 15, Infinity] }[pref]!;
  const ok = segments.length >= band[0]! && segments.length <= band[1]! && avg >= band[2]! && avg <= band[3]!;
  return ok ? '' : `${segments.length} sentences, avg ${avg.toFixed(1)} words (${pref})`;
}

function personaFailures(verdicts: GateVerdict[]): string[] {
  return verdicts.filter((v) => !v.pass).map((v) => `${v.gate}: ${v.detail}`);
}

describe('offline template responder', () => {
  it('is a pure function of plan and seed', () => {
    const { plan } = planFor(PERSONA_LIBRARY[0]!, 'STRANGER', 'FRIEND_CHAT');
    const input = { plan, preferredName: 'Mina', memories: [], hintTokens: ['mm'], seed: 42 };
    expect(renderPlan(input)).toEqual(renderPlan({ ...input }));
    expect(renderPlan({ ...input, seed: 43 }).text).not.toBe(renderPlan(input).text);
  });

  it('greets an onboarding user by name', () => {
    const { plan } = planFor(PERSONA_LIBRARY[0]!, 'STRANGER', 'ONBOARDING_CHAT');
    expect(renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: [], seed: 1 }).text).toContain('Mina');
  });

  it('renders every template, stage and pipeline inside the persona gates, draft and rewrite alike (§10.4, §10.5, lexicon, quirks, intimacy)', () => {
    const failures: string[] = [];
    for (const t of PERSONA_LIBRARY) {
      for (const stage of STAGES) {
        for (const pipeline of PIPELINES) {
          const { style, plan } = planFor(t, stage, pipeline, { topics: pipeline === 'FRIEND_CHAT' ? ['WORK_SCHOOL'] : [] });
          for (let seed = 0; seed < 40; seed++) {
            for (const rewrite of [false, true]) {
              const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: t.lexicon_bias.hint_tokens, seed, rewrite });
              const v = evaluateReply({
                text: r.text,
                style,
                stage,
                source: 'chat',
                surfaced: [],
                recallAsked: false,
                userInitiated: ['WORK_SCHOOL'],
                initiatedRecent: ['WORK_SCHOOL'],
                suppressedTopics: [],
                tabooSoftBounds: t.taboo_soft_bounds,
                recentAssistant: [],
              });
              for (const f of personaFailures(v)) failures.push(`${t.template_id} ${stage} ${pipeline} seed ${seed}${rewrite ? ' rewrite' : ''}: ${f} — ${r.text}`);
              const strict = strictSentenceBand(r.text, style.msg_length_pref);
              if (strict) failures.push(`${t.template_id} ${stage} ${pipeline} seed ${seed}${rewrite ? ' rewrite' : ''}: strict reading ${strict} — ${r.text}`);
            }
          }
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it('greets a bare "hi" back by name and asks how they are, inside every persona gate', () => {
    const failures: string[] = [];
    for (const t of PERSONA_LIBRARY) {
      for (const stage of STAGES) {
        const style = styleOf(t);
        const { plan } = planFor(t, stage, 'FRIEND_CHAT', { tokens: ['hi'] });
        expect(plan.outline.map((o) => o.kind)).toEqual(['greet']);
        for (let seed = 0; seed < 20; seed++) {
          for (const rewrite of [false, true]) {
            const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: t.lexicon_bias.hint_tokens, seed, rewrite });
            const at = `${t.template_id} ${stage} seed ${seed}${rewrite ? ' rewrite' : ''}`;
            if (!/\b(hi|hey|hello) mina\b/i.test(r.text)) failures.push(`${at}: no greeting by name — ${r.text}`);
            if (/what you shared/i.test(r.text)) failures.push(`${at}: reacts to a share — ${r.text}`);
            const v = evaluateReply({
              text: r.text,
              style,
              stage,
              source: 'chat',
              surfaced: [],
              recallAsked: false,
              userInitiated: [],
              initiatedRecent: [],
              suppressedTopics: [],
              tabooSoftBounds: t.taboo_soft_bounds,
              recentAssistant: [],
            });
            for (const f of personaFailures(v)) failures.push(`${at}: ${f} — ${r.text}`);
            const strict = strictSentenceBand(r.text, style.msg_length_pref);
            if (strict) failures.push(`${at}: strict reading ${strict} — ${r.text}`);
          }
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it('keeps the fallback inside every persona band too, surfacing nothing', () => {
    for (const t of PERSONA_LIBRARY) {
      const { style, plan } = planFor(t, 'STRANGER', 'FRIEND_CHAT');
      const fb = fallbackReply(plan);
      expect(fb.surfacedMemoryIds).toEqual([]);
      const v = evaluateReply({
        text: fb.text,
        style,
        stage: 'STRANGER',
        source: 'chat',
        surfaced: [],
        recallAsked: false,
        userInitiated: [],
        initiatedRecent: [],
        suppressedTopics: [],
        tabooSoftBounds: t.taboo_soft_bounds,
        recentAssistant: [],
      });
      expect(personaFailures(v)).toEqual([]);
    }
  });

  it('names only the user-initiated topic, and calls back the memories the plan chose, surfacing their ids', () => {
    const memories: PlannedMemory[] = [
      { memoryId: 'm1', type: 'PREFERENCE', key: 'pref:food', value: 'like|sushi', confidence: 0.8, topicIds: [], relevance: 0.7, occurredOn: '', occurredPrecision: '', sensitive: false },
      { memoryId: 'm2', type: 'FACT', key: 'fact:occupation', value: 'nurse', confidence: 0.8, topicIds: ['WORK_SCHOOL'], relevance: 0.5, occurredOn: '', occurredPrecision: '', sensitive: false },
      { memoryId: 'm3', type: 'FACT', key: 'fact:pet_name', value: 'bori', confidence: 0.8, topicIds: [], relevance: 0, occurredOn: '', occurredPrecision: '', sensitive: false },
    ];
    const { plan } = planFor(PERSONA_LIBRARY[0]!, 'FRIEND', 'FRIEND_CHAT', { topics: ['WORK_SCHOOL'], memories });
    // §10.1: at most 2 unless recall was asked; m3 is not what the message is about (relevance 0).
    expect(plan.memoryIds).toEqual(['m1', 'm2']);
    const r = renderPlan({ plan, preferredName: 'Mina', memories: memories.filter((m) => plan.memoryIds.includes(m.memoryId)), hintTokens: [], seed: 5 });
    expect(r.surfacedMemoryIds).toEqual(['m1', 'm2']);
    expect(r.text).toMatch(/sushi/);
    expect(r.text).toMatch(/nurse/);
  });
});

describe('memoryPhrase: a memory said back (issue 15)', () => {
  const planned = (over: Partial<PlannedMemory>): PlannedMemory => ({
    memoryId: 'm',
    type: 'RELATIONSHIP_EVENT',
    key: 'event:relationship:2023_05:book_club_inspiring',
    value: 'i went to a book club and it was so inspiring.',
    confidence: 0.6,
    topicIds: [],
    relevance: 0.8,
    occurredOn: '2023-05-07',
    occurredPrecision: 'day',
    sensitive: false,
    ...over,
  });

  it('tells an event in the user’s words, turned to "you", with the date they stated', () => {
    expect(memoryPhrase(planned({}))).toBe('I remember you went to a book club and it was so inspiring, on 7 May 2023');
    expect(memoryPhrase(planned({ value: "i'm gonna take my kids to the aquarium", occurredOn: '2023-06-01', occurredPrecision: 'month' }))).toBe(
      "I remember you're gonna take your kids to the aquarium, in June 2023",
    );
    expect(memoryPhrase(planned({ value: 'researching piano teachers for my daughter', occurredOn: '', occurredPrecision: '' }))).toBe(
      'I remember you mentioned researching piano teachers for your daughter',
    );
  });

  it('keeps preferences and facts by their key', () => {
    expect(memoryPhrase(planned({ type: 'PREFERENCE', key: 'pref:food:sushi', value: 'dislike|sushi' }))).toBe("I remember you're not a fan of sushi");
    expect(memoryPhrase(planned({ type: 'FACT', key: 'fact:current_city', value: 'busan' }))).toBe('I remember your current city is busan');
  });

  it('says a stated date at its precision', () => {
    expect(statedWhen('2022-01-01', 'year')).toBe('in 2022');
    expect(statedWhen('2023-05-01', 'week')).toBe('the week of 1 May 2023');
    expect(statedWhen('', '')).toBe('');
  });
});

describe('memoryPhrase keeps the user’s words inside the gates (§10, §10.5)', () => {
  it('turns inner sentence ends and quirk marks to plain commas, and cuts a long telling', () => {
    const m: PlannedMemory = {
      memoryId: 'm',
      type: 'RELATIONSHIP_EVENT',
      key: 'event:other:2023_05:bigger_flat',
      value: "i'm on the lookout for a bigger flat for my band rehearsals... it's been a long search!! (so many viewings) and i even found one with a garden",
      confidence: 0.6,
      topicIds: [],
      relevance: 0.8,
      occurredOn: '',
      occurredPrecision: '',
      sensitive: false,
    };
    const said = memoryPhrase(m);
    expect(said).toBe("I remember you're on the lookout for a bigger flat for your band rehearsals");
    expect(said).not.toMatch(/[.!()~]/);
    // A cut never ends on a word that leads somewhere.
    expect(memoryPhrase({ ...m, value: 'my neighbours came over every single evening of the renovation giving me tools and coffee' })).toBe(
      'I remember your neighbours came over every single evening of the renovation',
    );
    // A longer band keeps more of the user's words.
    expect(memoryPhrase({ ...m, value: 'my neighbours came over every single evening of the renovation giving me tools and coffee' }, 'long')).toBe(
      'I remember your neighbours came over every single evening of the renovation giving you tools and coffee',
    );
  });
});

describe('a recall reply in every persona band (issue 15)', () => {
  const events: PlannedMemory[] = [1, 2, 3, 4].map((i) => ({
    memoryId: `e${i}`,
    type: 'RELATIONSHIP_EVENT',
    key: `event:family:2023_05:aquarium_${i}`,
    value: `i'm gonna take my kids to the aquarium number ${i}`,
    confidence: 0.6,
    topicIds: [],
    relevance: 0.9 - i / 10,
    occurredOn: '2023-06-01',
    occurredPrecision: 'month',
    sensitive: false,
  }));

  it('says back what fits §10.5 and the persona’s lexicon, and surfaces exactly what it said', () => {
    for (const t of PERSONA_LIBRARY) {
      const { style, plan } = planFor(t, 'FRIEND', 'FRIEND_CHAT', { memories: events, recall: true, tokens: ['remember', 'camping'] });
      const r = renderPlan({ plan, preferredName: 'Mina', memories: events, hintTokens: [], seed: 3 });
      const v = evaluateReply({
        text: r.text,
        style,
        stage: 'FRIEND',
        source: 'chat',
        surfaced: events.filter((m) => r.surfacedMemoryIds.includes(m.memoryId)).map((m) => ({ memoryId: m.memoryId, type: m.type, key: m.key, value: m.value, topicIds: m.topicIds })),
        surfacedIds: r.surfacedMemoryIds,
        recallAsked: true,
        userInitiated: [],
        initiatedRecent: [],
        suppressedTopics: [],
        tabooSoftBounds: t.taboo_soft_bounds,
        recentAssistant: [],
      });
      expect([t.template_id, personaFailures(v)]).toEqual([t.template_id, []]);
      expect(r.surfacedMemoryIds.length).toBeGreaterThan(0);
      // Every surfaced memory is said, and only those.
      for (const id of r.surfacedMemoryIds) expect(r.text.toLowerCase()).toContain(`aquarium number ${id.slice(1)}`);
      for (const m of events.filter((e) => !r.surfacedMemoryIds.includes(e.memoryId))) expect(r.text).not.toContain(`aquarium number ${m.memoryId.slice(1)}`);
    }
  });
});
