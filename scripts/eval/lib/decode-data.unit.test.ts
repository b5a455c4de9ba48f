import { DecodeFormatError, parseJsonl, planAll, planHumanBot, planRct } from './decode-data.js';

// Invented dialogues in DECODE's JSON shape (no dataset text).
const humanBot = {
  conversation_id: 'hb-1',
  agents: { '0': { is_human: true }, '1': { is_human: false, persona_lines: [] } },
  turns: [
    { text: 'Hello there', turn_id: 0, agent_id: 0 },
    { text: 'Hi! I am a lighthouse keeper.', turn_id: 1, agent_id: 1 },
    { text: 'Sounds lonely.', turn_id: 2, agent_id: 0 },
    { text: 'I have never worked near the sea.', turn_id: 3, agent_id: 1 },
  ],
  is_contradiction: true,
};

const rct = {
  conversation_id: 'rct-9#truncated#2',
  record_id: 'r-77',
  agents: { '0': { is_human: true, persona_lines: ['i grow tomatoes.'] }, '1': { is_human: true, persona_lines: ['i play the tuba.', 'i have three goats.'] } },
  turns: [
    { text: 'I love my garden', turn_id: 0, agent_id: 0 },
    { text: 'My goats would eat it', turn_id: 1, agent_id: 1 },
    { text: 'Ha, keep them out!', turn_id: 2, agent_id: 0 },
    { text: 'I practise the tuba to scare them', turn_id: 3, agent_id: 1 },
  ],
  is_contradiction: false,
};

describe('parseJsonl', () => {
  it('reads one record a line and skips blank lines', () => {
    const records = parseJsonl(`${JSON.stringify(humanBot)}\n\n${JSON.stringify(rct)}\n`, 'x.jsonl');
    expect(records.map((r) => r.conversation_id)).toEqual(['hb-1', 'rct-9#truncated#2']);
  });

  it('names the file and line of a bad record', () => {
    expect(() => parseJsonl(`${JSON.stringify(humanBot)}\n{"conversation_id": 3}`, 'y.jsonl')).toThrow(DecodeFormatError);
    expect(() => parseJsonl(`${JSON.stringify(humanBot)}\n{"conversation_id": 3}`, 'y.jsonl')).toThrow(/^y\.jsonl:2: not a DECODE record/);
    expect(() => parseJsonl('{nope', 'z.jsonl')).toThrow(/^z\.jsonl:1: not JSON/);
  });
});

describe('planHumanBot', () => {
  it("keeps the bot's turns in order and the label", () => {
    const plan = planHumanBot(parseJsonl(JSON.stringify(humanBot), 'f')[0]!);
    expect(plan).toEqual({
      set: 'human-bot',
      id: 'hb-1',
      companionAgent: '1',
      persona: [],
      turns: ['Hi! I am a lighthouse keeper.', 'I have never worked near the sea.'],
      label: true,
    });
  });

  it('skips a record whose last turn is the human', () => {
    const r = parseJsonl(JSON.stringify({ ...humanBot, turns: humanBot.turns.slice(0, 3) }), 'f')[0]!;
    expect(planHumanBot(r)).toEqual({ skip: 'last turn is not the bot' });
  });

  it('skips a record without exactly one bot', () => {
    const r = parseJsonl(JSON.stringify({ ...humanBot, agents: { '0': { is_human: true }, '1': { is_human: true } } }), 'f')[0]!;
    expect(planHumanBot(r)).toEqual({ skip: '0 bot agents' });
  });
});

describe('planRct', () => {
  it("plays the last speaker as the companion: its persona lines, then its turns", () => {
    const plan = planRct(parseJsonl(JSON.stringify(rct), 'f')[0]!);
    expect(plan).toEqual({
      set: 'rct',
      id: 'rct-9#truncated#2/r-77',
      companionAgent: '1',
      persona: ['i play the tuba.', 'i have three goats.'],
      turns: ['My goats would eat it', 'I practise the tuba to scare them'],
      label: false,
    });
  });

  it('reads an empty-string persona as no persona lines', () => {
    const r = parseJsonl(JSON.stringify({ ...rct, agents: { ...rct.agents, '1': { is_human: true, persona_lines: '' } } }), 'f')[0]!;
    expect(planRct(r)).toMatchObject({ persona: [], turns: ['My goats would eat it', 'I practise the tuba to scare them'] });
  });
});

describe('planAll', () => {
  it('counts skipped records by reason', () => {
    const records = parseJsonl([humanBot, { ...humanBot, turns: humanBot.turns.slice(0, 1) }].map((r) => JSON.stringify(r)).join('\n'), 'f');
    const { plans, skipped } = planAll(records, 'human-bot');
    expect(plans).toHaveLength(1);
    expect(skipped).toEqual({ 'last turn is not the bot': 1 });
  });
});
