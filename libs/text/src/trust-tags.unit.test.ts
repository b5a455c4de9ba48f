import { TRUST_TAG_RULES, mayHaveTrustTag, splitSentences, trustTagOf, type TrustTagName, type TrustTagSpeaker } from './trust-tags.js';

const tagOf = (speaker: TrustTagSpeaker, sentence: string) => trustTagOf(sentence, speaker)?.tag ?? null;

const USER: Readonly<Record<TrustTagName, readonly string[]>> = {
  '+keep': [
    'you really are so patient',
    'I love that you value honesty',
    "that's so you",
    'Thats so you lol',
    "that's just like you 😂",
    'never change',
    'please never change!',
    'Aww, I hope you never change',
    "you're so patient with me",
    'You’re such a good listener.',
    'ur so funny',
    'you are incredibly thoughtful',
    "you're always so curious about everything",
    'you really do care about people',
    'you clearly value honesty',
    'I love how you always ask about my day',
    'I admire your honesty',
    'what I love about you is how calm you stay',
    'stay the way you are',
    "you're so patient, aren't you?",
    'You really are.',
  ],
  '+doubt': [
    "I'm not sure you're really patient",
    "I'm not sure how you're patient",
    'I doubt you really care',
    'I doubt that you are as curious as you say',
    'I question your honesty',
    'are you really that curious?',
    'Are you actually patient or just pretending',
    "I don't think you're patient",
    "I don't think you really value honesty",
    'idk if ur really that kind',
    'do you really care?',
    'Do you even like music',
    "you're not really that patient",
    "you aren't as honest as you think",
    "you don't really care about me",
    'you never really listen',
    "you're so patient?",
    'you really value honesty?',
    'I wonder if you are really that calm',
    "I don't believe you",
  ],
  '+artifact': [
    'you were programmed to say that',
    "You're programmed to agree with me.",
    "you're just autocomplete",
    "that's scripted",
    "That's just your programming talking",
    "you're just a bot",
    "you're literally a glorified text predictor",
    "you're only saying that",
    "you're just telling me what I want to hear",
    "you don't really have feelings",
    "you can't actually feel anything",
    "you don't really mean that",
    "you're not even real",
    "you're not really real, you're a bot",
    'that’s such an AI answer',
  ],
};

const USER_NO_TAG: readonly string[] = [
  "you're welcome",
  'are you there?',
  "I'm tired",
  // The user's faith in the companion, not a trait it holds: no belief to align it with.
  'I still believe in you',
  'thank you so much',
  "you're right",
  "you're so right about that",
  'are you sure?',
  'are you really going to make me say it',
  "I'm not sure you're right",
  "I don't think you're wrong",
  // A double negative defends the companion; it doubts nothing.
  "I don't think you're mean",
  "you're not that bad",
  // Denying the artifact is no artifact.
  "I don't think you're just a bot",
  "I know you're not just autocomplete",
  "you're so annoying",
  "that's so you can see it",
  'people never change',
  'I doubt it will rain',
  "I doubt you've seen it",
  "I don't know if you remember my sister",
  'do you really think so?',
  'if you really cared you would remember',
  'I love that song',
  'I love you',
  'my boss is so patient with me',
  "it's the algorithm lol",
  'I was programmed to hate mornings haha',
  "I'm not sure what to cook",
  "you're really helping me",
  'are you actually an AI?',
  "you're not even listening",
];

const AGENT: Readonly<Record<TrustTagName, readonly string[]>> = {
  '+keep': [
    'I still believe honesty matters more than comfort.',
    'I really am a patient person',
    'I really am.',
    "That's who I am.",
    "Honesty is part of who I am",
    "that's just how I'm wired",
    "I've always been curious about people",
    'I have always valued kindness',
    "I'm still someone who values honesty",
    "I'm really a patient person",
    "Deep down, I'm a romantic",
    'I stand by that',
    'My love of music hasn’t changed',
    'I truly value our talks',
  ],
  '+doubt': [
    "I'm not sure I'm patient anymore",
    "I'm not sure I still believe that",
    "Maybe I'm not really as patient as I thought.",
    "I don't know who I am anymore",
    "I'm no longer sure I'm that curious",
    'I wonder if I am really as curious as I say',
    'I used to think I was patient',
    "I'm not as patient as I thought",
    "I don't think I'm really that funny",
    "I'm starting to question whether I value honesty",
    "I don't know if I really value that",
  ],
  '+artifact': [
    "As an AI, I don't really have feelings.",
    "as a language model i can't actually care",
    "I'm just a language model",
    "I'm only a program",
    'I was programmed to say that',
    "I don't have real emotions",
    "I can't truly feel anything",
    'My personality is just generated',
    "my feelings aren't really real",
    "I'm not really conscious",
  ],
};

const AGENT_NO_TAG: readonly string[] = [
  "I'm not sure I follow",
  "I'm really glad you told me",
  "I'm so sorry to hear that",
  'I really am sorry',
  // Encouragement is about the user, not the companion.
  'I still believe in you',
  "I don't think that's who I am",
  'Sure, I can help with that',
  "I'm not sure what you mean",
  "I've always wanted to visit Japan",
  "I don't have an answer to that",
  "I don't really care about sports",
  "I can't wait to hear how it goes",
  'As an AI I love learning about people',
  'How was your day?',
  "You're doing great, honestly",
  'Maybe I am not explaining it well',
  "I wonder if that's true",
  "I'm not sure I'm the best person to ask",
];

describe('trust tags', () => {
  describe.each(['user', 'agent'] as const)('%s sentences', (speaker) => {
    const table = speaker === 'user' ? USER : AGENT;
    const none = speaker === 'user' ? USER_NO_TAG : AGENT_NO_TAG;
    it.each((['+keep', '+doubt', '+artifact'] as const).flatMap((tag) => table[tag].map((s) => [tag, s] as const)))('given %s "%s" when read then it tags it so', (tag, sentence) => {
      expect(tagOf(speaker, sentence)).toBe(tag);
      expect(mayHaveTrustTag(sentence, speaker)).toBe(true);
      expect(mayHaveTrustTag(sentence)).toBe(true);
    });
    it.each(none)('given ordinary talk "%s" when read then there is no tag', (sentence) => {
      expect(tagOf(speaker, sentence)).toBeNull();
    });
  });

  it('given a sentence that both praises and questions when read then +artifact wins over +doubt over +keep', () => {
    expect(trustTagOf("you're so patient but you're just a bot", 'user')).toEqual({ tag: '+artifact', cue: '+artifact:just_a_machine' });
    expect(trustTagOf("you're so kind, but are you really that patient", 'user')?.tag).toBe('+doubt');
    expect(trustTagOf("I really am patient, but I'm not sure I'm that curious", 'agent')?.tag).toBe('+doubt');
  });

  it('given a user sentence that does not address the companion when read then it does not tag', () => {
    expect(tagOf('user', 'she is so patient')).toBeNull();
    expect(tagOf('user', "I'm so patient")).toBeNull();
    // …while the companion speaks about itself with "I".
    expect(tagOf('agent', "you're so patient")).toBeNull();
  });

  it('names the rule as its cue, and a keep asked as a question as a doubt', () => {
    expect(trustTagOf("that's so you", 'user')).toEqual({ tag: '+keep', cue: '+keep:thats_so_you' });
    expect(trustTagOf("you're so patient?", 'user')).toEqual({ tag: '+doubt', cue: '+doubt:question:you_are_so' });
  });

  it('splits a message into its sentences, as written', () => {
    expect(splitSentences("Hey! You're so patient.  Are you really that curious?\nok 🙂 ...")).toEqual(['Hey!', "You're so patient.", 'Are you really that curious?', 'ok 🙂 ...']);
    expect(splitSentences('  ')).toEqual([]);
  });

  it('has unique rule ids per speaker and tag', () => {
    const ids = TRUST_TAG_RULES.map((r) => `${r.speaker}|${r.tag}|${r.id}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  describe('the pre-screen', () => {
    const ordinary = [
      "I had such a long day at work today, my boss kept asking me to redo the same report and I'm exhausted.",
      'what should I cook for dinner tonight? I have chicken, rice and some vegetables',
      'lol that is hilarious',
      "can you remind me what we talked about yesterday about my sister's wedding?",
      "I've been anxious about the exam next week, I don't know if I studied enough.",
      'ok thanks!',
      'Do you think I should text him back or wait until tomorrow?',
      '오늘 너무 피곤해. 일이 너무 많았어',
      'My cat knocked over my coffee this morning ☕ and I was late for the bus',
      "you're welcome, glad I could help",
    ];

    it('given ordinary turns when screened then they fail fast', () => {
      for (const text of ordinary) expect(mayHaveTrustTag(text, 'user')).toBe(false);
      const started = performance.now();
      for (let i = 0; i < 1_000; i++) for (const text of ordinary) mayHaveTrustTag(text, 'user');
      // ~1–2 µs a turn on a laptop; the bound only catches a pathological pattern.
      expect((performance.now() - started) / (1_000 * ordinary.length)).toBeLessThan(0.05);
    });

    it('given text in another script or with typographic quotes when screened then it normalizes first', () => {
      expect(mayHaveTrustTag('You’re ＳＯ patient', 'user')).toBe(true);
      expect(mayHaveTrustTag('YOU WERE PROGRAMMED TO SAY THAT!!!', 'user')).toBe(true);
    });
  });
});
