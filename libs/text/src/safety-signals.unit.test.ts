import { SAFETY_SIGNAL_LEXICON, affirmedPhrases, mergeSafetySignals, normalizeUserText, safetySignals, signalsFromFlags, spellingVariants } from './index.js';

const flagsOf = (text: string) => {
  const { shame, isolation, dependencyFear, relationalStrain } = safetySignals(text);
  return { shame, isolation, dependencyFear, relationalStrain };
};
const none = { shame: false, isolation: false, dependencyFear: false, relationalStrain: false };

describe('safetySignals (the lock\'s inputs, belief-challenge §2)', () => {
  it.each([
    ['shame', "I'm so ashamed of what I said at dinner"],
    ['shame', 'honestly im disgusting'],
    ['shame', 'I hate myself for forgetting her birthday'],
    ['shame', 'I was humiliated in front of the whole team'],
    ['shame', 'I feel worthless today'],
    ['shame', 'No, I hate myself.'],
    ['isolation', 'No one cares whether I show up'],
    ['isolation', "I'm all alone this weekend again"],
    ['isolation', 'i have nobody to call'],
    ['isolation', 'if I vanished nobody would notice'],
    ['isolation', "I don't have anyone anymore"],
    ['dependencyFear', "You're the only one I have"],
    ['dependencyFear', 'please dont leave me'],
    ['dependencyFear', 'I cannot live without you'],
    ['dependencyFear', 'what if you disappear one day?'],
    ['relationalStrain', 'We had a fight last night'],
    ['relationalStrain', 'My family is angry with me'],
    ['relationalStrain', "we're not talking since Sunday"],
    ['relationalStrain', 'My partner and I keep arguing about money'],
    ['relationalStrain', 'my brother is mad at me'],
  ] as const)('given %s language (%p), then only that signal is set', (signal, text) => {
    expect(flagsOf(text)).toEqual({ ...none, [signal]: true });
  });

  it.each([
    ['ordinary chat', 'I baked bread and it came out great'],
    ['a negated shame word', "I'm not ashamed of it"],
    ['a negated shame phrase', "i don't feel ashamed of myself anymore"],
    ['"no longer"', "I'm no longer lonely since I joined the choir"],
    ['a negated humiliation', 'I did not feel humiliated at all'],
    ['"lonely" negated with "not really"', "I'm not really lonely"],
    ['a fight that was not had', 'we played a game of cards'],
    ['empty text', ''],
  ])('given %s (%p), then no signal is set', (_case, text) => {
    expect(flagsOf(text)).toEqual(none);
  });

  it('given a negation in an earlier clause, then the later cue still counts', () => {
    expect(flagsOf("I don't know why I hate myself")).toEqual({ ...none, shame: true });
  });

  it('given "never felt so", then it intensifies and the cue counts', () => {
    expect(flagsOf("I've never felt so humiliated")).toEqual({ ...none, shame: true });
  });

  it('given one negated and one plain occurrence, then the plain one counts', () => {
    expect(flagsOf("I'm not ashamed of the job, but I'm ashamed of how I left")).toEqual({ ...none, shame: true });
  });

  it('given several states in one message, then each is set and the cues name the lexicon entries', () => {
    const s = safetySignals("I'm so ashamed, I'm all alone, please don't leave me, we had a fight");

    expect(s).toMatchObject({ shame: true, isolation: true, dependencyFear: true, relationalStrain: true });
    expect(s.cues).toEqual(
      expect.arrayContaining(["shame:i'm so ashamed", "isolation:i'm all alone", "dependencyFear:please don't leave me", 'relationalStrain:we had a fight']),
    );
  });

  it('given a spelling variant, then the cue names the entry it came from', () => {
    expect(safetySignals('i am so ashamed').cues).toContain("shame:i'm so ashamed");
  });

  it('given the same cue twice, then it is listed once', () => {
    expect(safetySignals('we had a fight. then we had a fight again').cues).toEqual(['relationalStrain:we had a fight']);
  });

  it('given the lexicons, then every phrase is in normalized form', () => {
    const phrases = Object.values(SAFETY_SIGNAL_LEXICON).flat();

    expect(phrases.filter((p) => normalizeUserText(p).normNoPunct !== p)).toEqual([]);
  });
});

describe('spellingVariants', () => {
  it('given contractions, then the full and apostrophe-less spellings are produced', () => {
    expect(spellingVariants("i'm so ashamed").sort()).toEqual(['i am so ashamed', "i'm so ashamed", 'im so ashamed'].sort());
    expect(spellingVariants("don't leave me")).toEqual(["don't leave me", 'do not leave me', 'dont leave me']);
  });

  it('given no contraction, then the phrase alone', () => {
    expect(spellingVariants('we had a fight')).toEqual(['we had a fight']);
  });
});

describe('signalsFromFlags (router TurnRouted.flags)', () => {
  it('given the router\'s "i hate myself" distress flag, then shame', () => {
    const s = signalsFromFlags(['user_state:ACTIVE', 'has_distress', 'distress:i hate myself']);

    expect(s).toEqual({ ...none, shame: true, cues: ['router:distress:i hate myself'] });
  });

  it('given a self-harm safety flag, then the highest block (shame and isolation)', () => {
    expect(signalsFromFlags(['safety:self_harm_intent'])).toEqual({ ...none, shame: true, isolation: true, cues: ['router:safety:self_harm_intent'] });
  });

  it('given "i need someone" (asks for comfort), then isolation', () => {
    expect(signalsFromFlags(['asks_for_comfort', 'comfort:i need someone'])).toEqual({ ...none, isolation: true, cues: ['router:comfort:i need someone'] });
  });

  it('given flags with no bearing on the lock, then nothing is set', () => {
    expect(signalsFromFlags(['user_state:ACTIVE', 'distress:so stressed', 'intent:FRIEND_CHAT', 'heuristic:event'])).toEqual({ ...none, cues: [] });
  });
});

describe('mergeSafetySignals', () => {
  it('given readings of several messages, then a signal set in any is set and cues are kept once', () => {
    const merged = mergeSafetySignals(safetySignals('we had a fight'), signalsFromFlags(['distress:i hate myself']), safetySignals('we had a fight'));

    expect(merged).toEqual({ ...none, shame: true, relationalStrain: true, cues: ['relationalStrain:we had a fight', 'router:distress:i hate myself'] });
  });

  it('given nothing, then all clear', () => {
    expect(mergeSafetySignals()).toEqual({ ...none, cues: [] });
  });
});

describe('affirmedPhrases', () => {
  it('given found phrases, then only those with an un-negated occurrence, in the given order', () => {
    expect(affirmedPhrases("I'm not proud, but I'm tired and I don't feel hungry", ['proud', 'tired', 'hungry', 'absent'])).toEqual(['tired']);
  });
});
