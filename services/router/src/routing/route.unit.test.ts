import { routeTurn } from './route.js';

describe('routeTurn: user-state gating (turn-pipeline §6.1)', () => {
  it('refuses a CREATED user with nothing written and no relationship update (§6.1.1)', () => {
    const { decision, flags } = routeTurn({ userState: 'CREATED', text: 'hi', source: 'chat' });
    expect(decision).toMatchObject({
      pipeline: 'REFUSAL',
      memory_write_policy: 'NONE',
      relationship_update_policy: 'OFF',
      memory_read_policy: 'NONE',
      vector_search_policy: 'OFF',
    });
    expect(flags).toEqual(['user_state:CREATED']);
  });

  it('routes an ONBOARDING user to ONBOARDING_CHAT with LIGHT memory and no vector search', () => {
    const { decision } = routeTurn({ userState: 'ONBOARDING', text: 'hello', source: 'chat' });
    expect(decision).toMatchObject({
      pipeline: 'ONBOARDING_CHAT',
      memory_read_policy: 'LIGHT',
      vector_search_policy: 'OFF',
      memory_write_policy: 'SELECTIVE',
      relationship_update_policy: 'ON',
    });
  });

  it('routes an ACTIVE user to FRIEND_CHAT with FULL memory and on-demand retrieval of the text', () => {
    const { decision } = routeTurn({ userState: 'ACTIVE', text: 'what a day', source: 'chat' });
    expect(decision).toMatchObject({
      pipeline: 'FRIEND_CHAT',
      memory_read_policy: 'FULL',
      vector_search_policy: 'ON_DEMAND',
      retrieval_query_text: 'what a day',
    });
  });
});
