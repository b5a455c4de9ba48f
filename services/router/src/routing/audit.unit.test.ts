import { TOPIC_LEXICON, type TopicLexicon } from '@hearth/text';
import { reRoute, turnRoutedOf, type RoutedInput } from './audit.js';
import { routeTurn } from './route.js';

const turn = (text: string, over: Partial<RoutedInput> = {}): RoutedInput => ({
  messageId: 'm1',
  conversationId: 'c1',
  userState: 'ACTIVE',
  text,
  aiFriendId: 'f1',
  source: 'chat',
  ageBand: '25-34',
  activatesUser: false,
  missingOnboarding: [],
  ...over,
});

/** What the router recorded for a turn, as today's router would record it. */
const recorded = (input: RoutedInput) => turnRoutedOf(input, routeTurn({ ...input, userState: input.userState as 'ACTIVE', source: 'chat' }));

describe('reRoute: recorded routing decided again', () => {
  it('finds nothing to change when today\'s router decided the turn', () => {
    for (const text of ['hi!', 'what is the capital of france?', 'i feel so alone tonight', 'do you remember my sister?']) {
      expect(reRoute(recorded(turn(text)))).toEqual([]);
    }
  });

  it('names each field a recorded decision differs in, with before and after', () => {
    const r = recorded(turn('what is the capital of france?'));
    const tampered = { ...r, decision: { ...r.decision!, pipeline: 'FRIEND_CHAT', notes: 'old rule' }, tokenEstimate: r.tokenEstimate + 1 };

    expect(reRoute(tampered)).toEqual([
      { field: 'decision.pipeline', before: 'FRIEND_CHAT', after: r.decision!.pipeline },
      { field: 'decision.notes', before: 'old rule', after: r.decision!.notes },
      { field: 'tokenEstimate', before: r.tokenEstimate + 1, after: r.tokenEstimate },
    ]);
  });

  it('shows what a lexicon change would change before it ships', () => {
    const r = recorded(turn('my boss yelled at me at work again'));
    expect(r.topicMatches.length).toBeGreaterThan(0);
    const withoutTopics: TopicLexicon = {
      version: 'trial',
      topics: Object.fromEntries(Object.keys(TOPIC_LEXICON.topics).map((t) => [t, [['zzzz-never-said']]])) as unknown as TopicLexicon['topics'],
    };

    const changes = reRoute(r, { lexicon: withoutTopics });
    expect(changes.map((c) => c.field)).toContain('topicMatches');
    expect(changes.find((c) => c.field === 'topicMatches')).toMatchObject({ before: r.topicMatches, after: [] });
  });

  it('reports a recorded user state the router does not accept', () => {
    expect(reRoute({ ...recorded(turn('hi')), userState: 'GONE' })).toEqual([
      { field: 'userState', before: 'GONE', after: 'not a user state the router accepts' },
    ]);
  });
});
