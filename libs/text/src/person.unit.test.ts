import { toSecondPerson } from './person.js';

describe('toSecondPerson', () => {
  it.each([
    ['i went to a book club and it was so inspiring.', 'you went to a book club and it was so inspiring.'],
    ["i'm gonna take my kids to the aquarium", "you're gonna take your kids to the aquarium"],
    ['i was so happy and my mom gave me a hug', 'you were so happy and your mom gave you a hug'],
    ['we adopted a puppy and named him oscar', 'you adopted a puppy and named him oscar'],
    ['researching piano teachers for our family', 'researching piano teachers for your family'],
    ['i told you about my new job', 'you told me about your new job'],
    ['I am proud of myself', 'you are proud of yourself'],
  ])('%s', (mine, yours) => {
    expect(toSecondPerson(mine)).toBe(yours);
  });
});
