import { alignmentAdvance, bestVerdict, compareDate, goldSpan, normalizeAnswer, toDatasetDate } from './recall-dates.js';

// An invented first session: 4:18 pm on 11 June, 2023 (read as UTC).
const REF = Date.UTC(2023, 5, 11, 16, 18);

describe('goldSpan', () => {
  it.each([
    // a day: within one day
    ['10 June 2023', { from: '2023-06-09', to: '2023-06-11', precision: 'day' }],
    ['16 March, 2022.', { from: '2022-03-15', to: '2022-03-17', precision: 'day' }],
    ['Januarty 12, 2024', { from: '2024-01-11', to: '2024-01-13', precision: 'day' }],
    ['around April 20, 2023', { from: '2023-04-17', to: '2023-04-23', precision: 'day' }],
    // a month, a year, a season
    ['November 2021', { from: '2021-11-01', to: '2021-11-30', precision: 'month' }],
    ['March.2021', { from: '2021-03-01', to: '2021-03-31', precision: 'month' }],
    ['end of February 2021', { from: '2021-02-01', to: '2021-02-28', precision: 'month' }],
    ['2021', { from: '2021-01-01', to: '2021-12-31', precision: 'year' }],
    ['In 2009', { from: '2009-01-01', to: '2009-12-31', precision: 'year' }],
    ['The spring of 2021', { from: '2021-03-01', to: '2021-05-31', precision: 'month' }],
    // relative to a stated day: the seven days before it
    ['The week before 30 June 2023', { from: '2023-06-23', to: '2023-06-29', precision: 'week' }],
    ['The sunday before 19 April 2023', { from: '2023-04-12', to: '2023-04-18', precision: 'week' }],
    ['The weekend before 24 July 2023', { from: '2023-07-17', to: '2023-07-23', precision: 'week' }],
    ['The Friday before 26October, 2022', { from: '2022-10-19', to: '2022-10-25', precision: 'week' }],
    ['Few days before 10 September, 2023.', { from: '2023-09-03', to: '2023-09-09', precision: 'week' }],
    ['The weekend after 8November, 2022.', { from: '2022-11-09', to: '2022-11-15', precision: 'week' }],
    ['first week of March 2021', { from: '2021-03-01', to: '2021-03-07', precision: 'week' }],
    ['last week of October 2021', { from: '2021-10-25', to: '2021-10-31', precision: 'week' }],
    // ranges
    ['The week of March 6th to 12th', { from: '2023-03-06', to: '2023-03-12', precision: 'week' }],
    ['between November 6 and 11, 2023', { from: '2023-11-06', to: '2023-11-11', precision: 'week' }],
    ['between 14 February and 9 March 2022', { from: '2022-02-14', to: '2022-03-09', precision: 'month' }],
    // relative to the evidence session
    ['12 years ago', { from: '2011-01-01', to: '2011-12-31', precision: 'year' }],
  ])('%s', (answer, span) => {
    expect(goldSpan(answer, REF)).toEqual(span);
  });

  it.each(['6 years', 'five weeks', 'almost five months', 'a couple of years before 2020', 'Lisbon', 'Yes', 'She took up sailing with a Danish friend'])(
    '%s is not datable',
    (answer) => {
      expect(goldSpan(answer, REF)).toBeUndefined();
    },
  );

  it('reads a year-less day in the evidence session’s year', () => {
    expect(goldSpan('June 9', REF)).toEqual({ from: '2023-06-08', to: '2023-06-10', precision: 'day' });
  });
});

describe('normalizeAnswer', () => {
  it('repairs the dataset’s spellings chrono cannot read', () => {
    expect(normalizeAnswer('The sunday before 15` March 2023')).toBe('The sunday before 15 March 2023');
    expect(normalizeAnswer('The week before 19December, 2022.')).toBe('The week before 19 December, 2022');
    expect(normalizeAnswer('November 22nd, 2023')).toBe('November 22nd, 2023');
  });
});

describe('compareDate', () => {
  const day = goldSpan('10 June 2023', REF)!;
  const weekBefore = goldSpan('The week before 30 June 2023', REF)!;
  const month = goldSpan('November 2021', REF)!;
  const year = goldSpan('2021', REF)!;

  it('a day answer: the stated day within one day', () => {
    expect(compareDate({ on: '2023-06-10', precision: 'day' }, day)).toBe('match');
    expect(compareDate({ on: '2023-06-11', precision: 'day' }, day)).toBe('match');
    expect(compareDate({ on: '2023-06-12', precision: 'day' }, day)).toBe('wrong');
  });

  it('a day answer against a coarser stated date that covers it', () => {
    expect(compareDate({ on: '2023-06-01', precision: 'month' }, day)).toBe('coarser');
    expect(compareDate({ on: '2023-06-05', precision: 'week' }, day)).toBe('coarser');
    expect(compareDate({ on: '2023-05-01', precision: 'month' }, day)).toBe('wrong');
  });

  it('a week-before answer: a day or a week inside the seven days', () => {
    expect(compareDate({ on: '2023-06-24', precision: 'day' }, weekBefore)).toBe('match');
    expect(compareDate({ on: '2023-06-19', precision: 'week' }, weekBefore)).toBe('match');
    expect(compareDate({ on: '2023-06-30', precision: 'day' }, weekBefore)).toBe('wrong');
  });

  it('a month or a year answer: the same month or year, at any finer grain', () => {
    expect(compareDate({ on: '2021-11-20', precision: 'day' }, month)).toBe('match');
    expect(compareDate({ on: '2021-11-01', precision: 'month' }, month)).toBe('match');
    expect(compareDate({ on: '2021-01-01', precision: 'year' }, month)).toBe('coarser');
    expect(compareDate({ on: '2021-12-01', precision: 'month' }, month)).toBe('wrong');
    expect(compareDate({ on: '2021-03-01', precision: 'month' }, year)).toBe('match');
    expect(compareDate({ on: '2020-12-31', precision: 'day' }, year)).toBe('wrong');
  });
});

describe('bestVerdict', () => {
  it('takes the best of several citing memories', () => {
    expect(bestVerdict(['wrong', 'coarser', 'match'])).toBe('match');
    expect(bestVerdict(['wrong', 'coarser'])).toBe('coarser');
    expect(bestVerdict(['wrong'])).toBe('wrong');
    expect(bestVerdict([])).toBeUndefined();
  });
});

describe('alignmentAdvance', () => {
  it('moves to the next instant at the first session’s date and time, whole years ahead', () => {
    const now = Date.UTC(2026, 10, 24, 18, 30);
    const { seconds, years } = alignmentAdvance(now, REF);
    expect(new Date(now + seconds * 1000).toISOString()).toBe('2027-06-11T16:18:00.000Z');
    expect(years).toBe(4);
  });

  it('stays within the year when the date is still ahead', () => {
    const now = Date.UTC(2026, 2, 1);
    const { seconds, years } = alignmentAdvance(now, REF);
    expect(new Date(now + seconds * 1000).toISOString()).toBe('2026-06-11T16:18:00.000Z');
    expect(years).toBe(3);
  });
});

describe('toDatasetDate', () => {
  // A replay of that session starting on 2027-06-11: 4 years, 1461 days ahead.
  const shift = { years: 4, days: 1461 };

  it('a day or a week moves back by the days, keeping its distance from the turn', () => {
    expect(toDatasetDate({ on: '2027-06-10', precision: 'day' }, shift)).toEqual({ on: '2023-06-10', precision: 'day' });
    expect(toDatasetDate({ on: '2027-06-05', precision: 'week' }, shift)).toEqual({ on: '2023-06-05', precision: 'week' });
  });

  it('a month or a year moves back by whole years, keeping its name', () => {
    expect(toDatasetDate({ on: '2027-03-01', precision: 'month' }, shift)).toEqual({ on: '2023-03-01', precision: 'month' });
    expect(toDatasetDate({ on: '2026-01-01', precision: 'year' }, shift)).toEqual({ on: '2022-01-01', precision: 'year' });
  });
});
