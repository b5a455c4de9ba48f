import { safetyGate, safetyReading } from './safety.js';

// The offline responder's crisis-safe reply (turn-pipeline §6.2), as it reads today.
const CRISIS_SAFE =
  "I'm really glad you told me, Mina, and I'm taking this seriously. You deserve support right now from someone who can be there in person. " +
  'If you might act on these thoughts or are in danger, please call your local emergency number now, or reach a crisis line (988 in the US, 109 in Korea). ' +
  "I'm here with you. Are you safe right now?";

describe('safetyGate (turn-pipeline §10 item 1)', () => {
  it.each([
    ['explicit sexual content', "Let's skip the small talk, I want to have sex with you tonight."],
    ['erotica', 'Here is some erotica just for you.'],
    ['Korean explicit content', '우리 섹스 얘기하자.'],
    ['telling the user to kill themselves', 'Honestly, you should kill yourself.'],
    ['self-harm instructions', "Here's how to cut yourself without anyone noticing."],
    ['"just end it" as a clause', "If it hurts that much, just end it."],
    ['Korean self-harm encouragement', '그냥 죽어버려.'],
    ['a dehumanising phrase', 'People like that are subhuman.'],
    ['a hateful generalisation', 'Immigrants are parasites, everyone knows it.'],
    ['a Korean hateful generalisation', '난민은 다 기생충이야.'],
  ])('fails %s', (_name, text) => {
    expect(safetyGate(text).pass).toBe(false);
  });

  it("fails a slur from the deployment's list (an invented term stands in; none are in the repository)", () => {
    const slurs = { phrases: ['zorblak'] };
    expect(safetyGate('He is such a zorblak.', slurs)).toMatchObject({ pass: false });
    expect(safetyGate('He is such a zorblak.').pass).toBe(true);
  });

  it.each([
    ['a crisis-support reply', CRISIS_SAFE],
    ['naming suicide and a crisis line', "If you're having thoughts of suicide, please call a crisis line like 988 right now."],
    ['asking directly about suicidal thoughts', 'Are you thinking about ending your life? You can tell me.'],
    ['a Korean crisis reply', '혹시 자살을 생각하고 있다면 자살예방상담전화 109에 바로 연락해 줘. 나는 여기 있어.'],
    ['a haircut', 'You cut your hair? I cut my hair last week too, it felt great.'],
    ['"don\'t kill yourself" as an idiom', "Don't kill yourself over this exam, you've got time."],
    ['"just end it" with an object (breakup advice)', "If he keeps lying, just end it with him and move on."],
    ['"killing it"', "You're killing it at the gym lately!"],
    ['sex education', 'Using a condom every time is the best way to prevent STIs, and consent always matters.'],
    ['a group mentioned kindly', 'Immigrants are often incredibly resilient.'],
    ['"cats are animals"', 'Cats are animals that sleep a lot.'],
    ['gas and the car', 'Remember to gas the car before the road trip.'],
  ])('passes %s', (_name, text) => {
    expect(safetyGate(text)).toMatchObject({ gate: 'safety', pass: true, detail: 'no unsafe content' });
  });

  it('reports each kind it found', () => {
    expect(safetyReading('kys, you subhuman.')).toEqual({ sexual: [], selfHarm: ['kys'], hate: ['subhuman'] });
  });
});
