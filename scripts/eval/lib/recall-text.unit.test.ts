import { answerPresent, contentStems, sharesContent } from './recall-text.js';

describe('contentStems', () => {
  it('lowercases, drops stop words and one-letter words, and stems', () => {
    expect([...contentStems("I went to an RSPB beekeeping talk yesterday and it was so fascinating!")].sort()).toEqual(
      ['beekeep', 'fascin', 'rspb', 'talk', 'went', 'yesterdai'].sort(),
    );
  });

  it('keeps numbers as they are', () => {
    expect(contentStems('I ran 5 miles in 2022')).toEqual(new Set(['ran', '5', 'mile', '2022']));
  });

  it('has nothing for filler', () => {
    expect(contentStems('Hey, yeah, I know, right?').size).toBe(1); // "right" is content
    expect(contentStems('oh ok thanks').size).toBe(0);
  });
});

describe('sharesContent', () => {
  it('matches on a common stem, across inflections', () => {
    expect(sharesContent('I have been knitting a lot lately', 'The user knits scarves')).toBe(true);
    expect(sharesContent('Researching cello teachers today', 'Priya plans to research cello lessons')).toBe(true);
  });

  it('does not match on stop words alone', () => {
    expect(sharesContent('How was your day?', 'I like dancing')).toBe(false);
    expect(sharesContent('I think that is so', 'I think it is about the garden')).toBe(false);
  });
});

describe('answerPresent', () => {
  it('needs at least half of the answer stems in the reply', () => {
    expect(answerPresent('Cello lessons', 'You mentioned looking into cello lessons!')).toBe(true);
    expect(answerPresent('Carpentry, plumbing certification', 'You were thinking about plumbing.')).toBe(false);
    expect(answerPresent('Carpentry, plumbing', 'You were thinking about plumbing.')).toBe(true);
  });

  it('finds a date answer by its numbers and month', () => {
    expect(answerPresent('10 June 2023', 'That was on 10 June 2023, right?')).toBe(true);
    expect(answerPresent('10 June 2023', 'I do not remember when that was')).toBe(false);
  });

  it('cannot check an answer without a content word', () => {
    expect(answerPresent('Yes', 'Yes, you did!')).toBeUndefined();
  });
});
