import { statedTime } from './stated-time.js';

// Monday 8 May 2023, 13:56 UTC.
const AT = new Date('2023-05-08T13:56:00Z');

describe('statedTime', () => {
  it.each([
    ['I went to a book club yesterday', 'past', { on: '2023-05-07', precision: 'day', text: 'yesterday' }],
    ['We had a picnic last week', 'past', { on: '2023-05-01', precision: 'week', text: 'last week' }],
    ['My sister visited last year', 'past', { on: '2022-01-01', precision: 'year', text: 'last year' }],
    ['I moved here two years ago', 'past', { on: '2021-01-01', precision: 'year', text: 'two years ago' }],
    ['I ran a half marathon in March', 'past', { on: '2023-03-01', precision: 'month', text: 'March' }],
    ['I am going camping next month', 'future', { on: '2023-06-01', precision: 'month', text: 'next month' }],
    ['I graduated on 12 April 2021', 'past', { on: '2021-04-12', precision: 'day', text: 'on 12 April 2021' }],
    ['I went to Jeju last May', 'past', { on: '2022-05-01', precision: 'month', text: 'last May' }],
    ['I started teaching back in 2019', 'past', { on: '2019-01-01', precision: 'year', text: 'back in 2019' }],
    ['I painted a sunrise today', 'past', { on: '2023-05-08', precision: 'day', text: 'today' }],
  ] as const)('%s', (text, tense, expected) => {
    expect(statedTime(text, AT, tense)).toEqual(expected);
  });

  it('moves a weekday or month said in the past tense before the turn', () => {
    // "on Sunday" said on a Monday is the day before, not six days ahead.
    expect(statedTime('I went hiking on Sunday', AT, 'past')).toMatchObject({ on: '2023-05-07', precision: 'day' });
    // "in August" said in May about something done is last August.
    expect(statedTime('I went to Paris in August', AT, 'past')).toMatchObject({ on: '2022-08-01', precision: 'month' });
    // A plan's weekday is ahead.
    expect(statedTime('I will call my mom on Sunday', AT, 'future')).toMatchObject({ on: '2023-05-14' });
  });

  it('reads durations, "now" and a bare time of day as no date', () => {
    expect(statedTime("I've lived next to these neighbours for 4 years", AT, 'past')).toBeNull();
    expect(statedTime('I have been painting lately', AT, 'present')).toBeNull();
    expect(statedTime('I get up at 5', AT, 'present')).toBeNull();
    expect(statedTime('I love my dog', AT, 'present')).toBeNull();
  });
});
