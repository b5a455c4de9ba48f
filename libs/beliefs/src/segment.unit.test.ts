import { segment, startsIndependentClause } from './segment.js';

const texts = (t: string) => segment(t).map((c) => c.text);

describe('segment (§4.2)', () => {
  it('splits on sentence ends and semicolons', () => {
    expect(texts('I am shy. I like quiet rooms! Do you? I cook; I clean.')).toEqual(['I am shy.', 'I like quiet rooms!', 'Do you?', 'I cook;', 'I clean.']);
  });

  it('splits a coordinating word before an independent clause', () => {
    expect(texts("I'm patient but I snap in traffic")).toEqual(["I'm patient", 'I snap in traffic']);
  });

  it('does not split a coordinating word inside a phrase', () => {
    expect(texts('I like tea and coffee')).toEqual(['I like tea and coffee']);
    expect(texts("I'm so tired")).toEqual(["I'm so tired"]);
  });

  it.each(['and', 'but', 'yet', 'so', 'while', 'whereas', 'though', 'although', 'however'])('splits on %s before a clause', (conj) => {
    expect(texts(`I work nights ${conj} my partner works days`)).toEqual(['I work nights', 'my partner works days']);
  });

  it.each(['because', 'since', 'unless', 'until', 'when', 'if', 'after', 'before', 'as', 'that', 'which', 'who'])('never splits on %s', (conj) => {
    expect(texts(`I get quiet ${conj} I am around strangers`)).toHaveLength(1);
  });

  it('drops the comma before the coordinating word', () => {
    expect(texts('I am calm, but my brother is loud.')).toEqual(['I am calm', 'my brother is loud.']);
  });

  it('keeps spans that point into the original text', () => {
    const text = "Honestly I'm patient but I snap in traffic. I love tea.";
    for (const c of segment(text)) expect(text.slice(c.span.start, c.span.end)).toBe(c.text);
    expect(segment(text).map((c) => c.span)).toEqual([
      { start: 0, end: 20 },
      { start: 25, end: 43 },
      { start: 44, end: 55 },
    ]);
  });

  it('does not end a sentence at a decimal point or an abbreviation', () => {
    expect(texts('I ran 3.5 miles with Dr. Lee today.')).toEqual(['I ran 3.5 miles with Dr. Lee today.']);
  });

  it('returns nothing for empty or punctuation-only text', () => {
    expect(segment('')).toEqual([]);
    expect(segment(' ... !! ')).toEqual([]);
  });

  it('splits several times in one sentence', () => {
    expect(texts('I am kind and I am honest but I am late')).toEqual(['I am kind', 'I am honest', 'I am late']);
  });
});

describe('startsIndependentClause', () => {
  it.each([
    [['i', 'snap'], true],
    [["i'm", 'tired'], true],
    [['my', 'family', 'disrespects', 'me'], true],
    [['my', 'older', 'sister', 'is', 'kind'], true],
    [['coffee'], false],
    [['i'], false],
    [['my', 'cat'], false],
  ])('%j → %s', (ws, expected) => {
    expect(startsIndependentClause(ws)).toBe(expected);
  });
});
