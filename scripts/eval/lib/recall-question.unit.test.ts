import { baseForm, RECALL_PREFIX, toRecallQuestion } from './recall-question.js';

describe('toRecallQuestion', () => {
  it.each([
    // A question about the user and a possessive, in the eval's one frame.
    ['When did Priya go to the beekeeping workshop?', 'Priya', 'when did I go to the beekeeping workshop?'],
    ["What is Priya's middle name?", 'Priya', 'what is my middle name?'],
    // does / is / has agree with "I".
    ['How often does Lena take her parrot to the vet?', 'Lena', 'how often do I take my parrot to the vet?'],
    ['When is Priya going to the quilting fair?', 'Priya', 'when am I going to the quilting fair?'],
    ['Which islands has Oskar sailed to?', 'Oskar', 'which islands have I sailed to?'],
    ['Does Marek enjoy woodworking?', 'Marek', 'do I enjoy woodworking?'],
    ['Would Kenji enjoy reading poems by T. S. Eliot or Mary Oliver?', 'Kenji', 'would I enjoy reading poems by T. S. Eliot or Mary Oliver?'],
    // A subject without an auxiliary: its verb agrees, past an adverb too.
    ['What Oskar thinks the ideal bike shed should look like?', 'Oskar', 'what I think the ideal bike shed should look like?'],
    ['What is something that Lena often fixes up for her neighbours?', 'Lena', 'what is something that I often fix up for my neighbours?'],
    ['Who drives Priya home when she has a late shift?', 'Priya', 'who drives me home when I have a late shift?'],
    ['Why does Tomas say he feels restless and rethinking his training plan?', 'Tomas', 'why do I say I feel restless and rethinking my training plan?'],
    // The name as an object.
    ['What hobbies suit Tomas?', 'Tomas', 'what hobbies suit me?'],
    ['Who helped Marek get the garden shed finished before the move?', 'Marek', 'who helped me get the garden shed finished before the move?'],
    ['How long was it between Lena adopting Biscuit and her other two parrots?', 'Lena', 'how long was it between me adopting Biscuit and my other two parrots?'],
    ['What inspired Ines and Farid to start a book swap?', 'Farid', 'what inspired Ines and me to start a book swap?'],
    // …and a subject again when a verb follows it.
    ['What kind of course was the class Priya signed up for in March 2024?', 'Priya', 'what kind of course was the class I signed up for in March 2024?'],
    ['What do Hana and Kenji agree on about their garden plans?', 'Kenji', 'what do Hana and I agree on about their garden plans?'],
    // Possessives: 's, a bare apostrophe, the dataset's backtick.
    ["What was Tomas' proudest moment with Anouk in April 2024?", 'Tomas', 'what was my proudest moment with Anouk in April 2024?'],
    ['Which of Zofia`s cousins and neighbours have moved abroad?', 'Zofia', 'which of my cousins and neighbours have moved abroad?'],
    ["What event did Farid's neighbour, Dario, invite him to?", 'Farid', 'what event did my neighbour, Dario, invite me to?'],
    // her: possessive before a noun, object before a preposition or at the end.
    ['What does Pilar suggest to keep window boxes tidy like hers?', 'Pilar', 'what do I suggest to keep window boxes tidy like mine?'],
    ['What did Priya say her cousins lent her?', 'Priya', 'what did I say my cousins lent me?'],
  ])('%s', (question, user, rewritten) => {
    expect(toRecallQuestion(question, user)).toBe(RECALL_PREFIX + rewritten);
  });

  it('leaves pronouns alone when the question does not name the user', () => {
    expect(toRecallQuestion('What craft project do Ruth and her nieces do together?', 'Priya')).toBe(
      `${RECALL_PREFIX}what craft project do Ruth and her nieces do together?`,
    );
  });

  it('keeps the capital of a first word that is a name, and ends with a question mark', () => {
    expect(toRecallQuestion("Ruth's neighbour planted a hedge when", 'Priya')).toBe(`${RECALL_PREFIX}Ruth's neighbour planted a hedge when?`);
  });

  it('is deterministic', () => {
    const q = 'When did Priya meet up with her classmates, coach, and neighbours?';
    expect(toRecallQuestion(q, 'Priya')).toBe(toRecallQuestion(q, 'Priya'));
  });
});

describe('baseForm', () => {
  it.each([
    ['thinks', 'think'],
    ['goes', 'go'],
    ['tries', 'try'],
    ['watches', 'watch'],
    ['painted', 'painted'],
    ['always', 'always'],
    ['miss', 'miss'],
    ['dresses', 'dress'],
  ])('%s → %s', (verb, base) => {
    expect(baseForm(verb)).toBe(base);
  });
});
