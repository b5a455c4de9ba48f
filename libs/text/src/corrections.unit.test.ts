import { parseCorrection } from './corrections.js';

describe('parseCorrection (turn-pipeline §12.4)', () => {
  it.each(["That's not true", 'Not true', 'Wrong', 'No, that’s wrong!', 'that is incorrect', 'nope its not true'])('reads %p as "that\'s not true"', (text) => {
    expect(parseCorrection(text)).toEqual({ command: 'not_true' });
  });

  it.each(['Forget that', "Don't remember that.", 'please forget it', 'Can you forget that please', 'dont remember this'])('reads %p as "forget that"', (text) => {
    expect(parseCorrection(text)).toEqual({ command: 'forget_that' });
  });

  it.each([
    ['Forget that I live in Seoul', 'that i live in seoul'],
    ['forget about my job', 'my job'],
    ["Don't remember my hometown, thanks", 'my hometown'],
    ['please forget sushi', 'sushi'],
  ])('reads %p as "forget X" with X = %p', (text, target) => {
    expect(parseCorrection(text)).toEqual({ command: 'forget_target', target });
  });

  it.each([
    ["Don't bring this topic up again", ''],
    ["please don't bring that up again", ''],
    ['Never bring it up again!', ''],
    ["don't mention this again", ''],
    ['stop bringing this up', ''],
    ["don't bring up my ex again", 'my ex'],
    ["don't talk about my job again", 'my job'],
    ['stop talking about politics', 'politics'],
  ])('reads %p as "don\'t bring this topic up again" (named topic %p)', (text, target) => {
    expect(parseCorrection(text)).toEqual({ command: 'suppress_topic', target });
  });

  it.each([
    "I don't remember that day at all",
    "what's wrong with me",
    'I was wrong about the date',
    'It is true that I love sushi',
    'I always forget my keys',
    '',
    '   ',
  ])('does not read %p as a command', (text) => {
    expect(parseCorrection(text)).toBeNull();
  });
});
