import { initiatedWithin, replyTopics, tabooGate, type TabooContext } from './topics.js';

const ELECTION = 'Did you follow the election news?';
const CHURCH = 'Are you going to church this Sunday?';
const ctx = (over: Partial<TabooContext>): TabooContext => ({ suppressed: [], tabooSoft: [], initiatedNow: [], initiatedRecent: [], ...over });

describe('replyTopics (turn-pipeline §2.8)', () => {
  it('counts any keyword hit as a mention', () => {
    expect(replyTopics(ELECTION)).toEqual(['POLITICS']);
    expect(replyTopics('이번 선거 어떻게 생각해?')).toEqual(['POLITICS']);
    expect(replyTopics('That sounds like a lovely afternoon.')).toEqual([]);
  });
});

describe('initiatedWithin (turn-pipeline §2.8: this and the previous 2 user messages)', () => {
  it('joins the current message and the 2 before it, newest first', () => {
    expect(initiatedWithin([['WORK_SCHOOL'], [], ['RELIGION'], ['POLITICS']])).toEqual(['WORK_SCHOOL', 'RELIGION']);
    expect(initiatedWithin([])).toEqual([]);
  });
});

describe('tabooGate (turn-pipeline §2.8, §14.3)', () => {
  it('passes a reply that mentions no controlled topic', () => {
    expect(tabooGate('That sounds like a lovely afternoon.', ctx({ suppressed: ['POLITICS'], tabooSoft: ['RELIGION'] })).pass).toBe(true);
  });

  it('fails a suppressed topic the user raised only in a previous turn', () => {
    const verdict = tabooGate(ELECTION, ctx({ suppressed: ['POLITICS'], initiatedRecent: initiatedWithin([[], ['POLITICS']]) }));
    expect(verdict).toMatchObject({ pass: false, measured: { suppressed: 'POLITICS' } });
  });

  it('passes a suppressed topic the user raised in this very message', () => {
    expect(tabooGate(ELECTION, ctx({ suppressed: ['POLITICS'], initiatedNow: ['POLITICS'], initiatedRecent: ['POLITICS'] })).pass).toBe(true);
  });

  it('passes a taboo_soft topic the user raised 2 messages back', () => {
    const initiatedRecent = initiatedWithin([[], [], ['RELIGION']]);
    expect(tabooGate(CHURCH, ctx({ tabooSoft: ['RELIGION'], initiatedRecent })).pass).toBe(true);
  });

  it('fails a taboo_soft topic the user raised 3 messages back', () => {
    const initiatedRecent = initiatedWithin([[], [], [], ['RELIGION']]);
    const verdict = tabooGate(CHURCH, ctx({ tabooSoft: ['RELIGION'], initiatedRecent }));
    expect(verdict).toMatchObject({ pass: false, measured: { taboo: 'RELIGION' } });
    expect(verdict.detail).toBe('taboo topics [RELIGION] not initiated in the last 3 user messages');
  });

  it('checks both lists: a topic in both needs this turn for the suppressed rule', () => {
    const both = ctx({ suppressed: ['POLITICS'], tabooSoft: ['POLITICS'], initiatedRecent: ['POLITICS'] });
    expect(tabooGate(ELECTION, both)).toMatchObject({ pass: false, measured: { suppressed: 'POLITICS', taboo: '' } });
  });
});

describe('tabooGate: the current message always counts as recent', () => {
  it('passes a taboo_soft topic initiated now even if initiatedRecent omits it', () => {
    expect(tabooGate(CHURCH, ctx({ tabooSoft: ['RELIGION'], initiatedNow: ['RELIGION'] })).pass).toBe(true);
  });
});
