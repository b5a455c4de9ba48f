import { parseKey } from '../keys.js';
import type { Candidate } from '../types.js';
import { extractRulesOnly } from './heuristic.js';
import { extractHeuristic, extractOffline, keysForTarget } from './heuristic.js';
import * as L from './lexicon.js';

// 10 May 2026 (UTC): events land in the 2026_05 bucket.
const AT = new Date('2026-05-10T12:00:00Z');

/** `key=value` of each candidate of the anchored rules, in order (broad.unit.test.ts covers what the broad extractor adds). */
function heuristic(text: string): string[] {
  return extractRulesOnly(text, AT, 'heuristic').map((c) => `${c.key}=${c.value}`);
}

function offline(text: string): string[] {
  return extractRulesOnly(text, AT, 'offline').map((c) => `${c.key}=${c.value}`);
}

describe('extractHeuristic: FACT', () => {
  it('reads where the user lives now as fact:current_city', () => {
    expect(heuristic('I live in Seoul')).toEqual(['fact:current_city=seoul']);
    expect(heuristic("I'm living in Busan now.")).toEqual(['fact:current_city=busan']);
    expect(heuristic('I just moved to Tokyo!')).toEqual(['fact:current_city=tokyo']);
    expect(heuristic('I moved to Daegu last year')).toEqual(['fact:current_city=daegu']);
    expect(heuristic('I live in Austin, Texas')).toEqual(['fact:current_city=austin']);
  });

  it('stores a city that is not in the lexicon only when it is written as a name', () => {
    // given an unlisted town, capitalized in a sentence that capitalizes names
    expect(heuristic('I live in Pohang.')).toEqual(['fact:current_city=pohang']);
    // when the writer capitalizes nothing, lowercase says nothing either way
    expect(heuristic('i live in pohang')).toEqual(['fact:current_city=pohang']);
    // but generic and abstract places are never cities
    expect(heuristic('I live in a small town')).toEqual([]);
    expect(heuristic('I live in an apartment')).toEqual([]);
    expect(heuristic('I live in fear')).toEqual([]);
    expect(heuristic('I live in the city')).toEqual([]);
  });

  it('reads the present perfect and "live with … in X" as living there now', () => {
    expect(heuristic("I've lived in Seoul for 3 years")).toEqual(['fact:current_city=seoul']);
    expect(heuristic("I've been living in Busan since March")).toEqual(['fact:current_city=busan']);
    expect(heuristic('I live with my parents in Incheon')).toEqual(['fact:current_city=incheon']);
    expect(heuristic('I live with my wife in a small house')).toEqual([]);
    expect(heuristic("I'm from Seoul but I live in Busan now")).toEqual(['fact:home_city=seoul', 'fact:current_city=busan']);
  });

  it('stores nothing for living in a country or a state: current_city is a city', () => {
    expect(heuristic('I live in Japan')).toEqual([]);
    expect(heuristic('I live in South Korea')).toEqual([]);
    expect(heuristic('I live in California')).toEqual([]);
  });

  it('reads "from / grew up in / born in" as home_country for a country, home_city otherwise', () => {
    expect(heuristic("I'm from Korea")).toEqual(['fact:home_country=south korea']);
    expect(heuristic('I am from the USA')).toEqual(['fact:home_country=united states']);
    expect(heuristic('I grew up in Japan')).toEqual(['fact:home_country=japan']);
    expect(heuristic('I was born in Seoul')).toEqual(['fact:home_city=seoul']);
    expect(heuristic('I grew up in Busan, South Korea')).toEqual(['fact:home_city=busan', 'fact:home_country=south korea']);
    expect(heuristic('I was born in 1990')).toEqual([]);
    expect(heuristic('I come from a big family')).toEqual([]);
  });

  it('reads occupations from "work as" and from a known job noun after "I\'m a"', () => {
    expect(heuristic('I work as a nurse at a hospital')).toEqual(['fact:occupation=nurse']);
    expect(heuristic("I'm an art teacher")).toEqual(['fact:occupation=art teacher']);
    expect(heuristic('I am a software engineer.')).toEqual(['fact:occupation=software engineer']);
    expect(heuristic('My job is being a bus driver')).toEqual(['fact:occupation=bus driver']);
    expect(heuristic('I am a stay at home mom')).toEqual(['fact:occupation=stay at home mom']);
  });

  it('does not read skills, wishes, the past, beliefs or diets as occupations', () => {
    expect(heuristic("I'm a good cook")).toEqual([]);
    expect(heuristic("I'm an aspiring writer")).toEqual([]);
    expect(heuristic("I'm a former teacher")).toEqual([]);
    expect(heuristic("I'm a christian")).toEqual([]);
    expect(heuristic("I'm a vegetarian")).toEqual([]);
    expect(heuristic("I'm a juggler")).toEqual([]);
    expect(heuristic('My job is boring')).toEqual([]);
  });

  it('stores no employer: "I work at X" maps to no key', () => {
    expect(heuristic('I work at Google')).toEqual([]);
  });

  it('reads majors and named schools', () => {
    expect(heuristic('I major in computer science')).toEqual(['fact:major=computer science']);
    expect(heuristic('My major is economics')).toEqual(['fact:major=economics']);
    expect(heuristic('I am a biology major')).toEqual(['fact:major=biology']);
    expect(heuristic("I'm a geology major at Alabama University")).toEqual(['fact:major=geology', 'fact:school=alabama university']);
    expect(heuristic('I study psychology at university')).toEqual(['fact:major=psychology']);
    expect(heuristic('I study biology at Seoul National University')).toEqual(['fact:school=seoul national university', 'fact:major=biology']);
    expect(heuristic('I attend the University of Michigan')).toEqual(['fact:school=university of michigan']);
    expect(heuristic('I go to Yonsei University')).toEqual(['fact:school=yonsei university']);
    expect(heuristic("I'm a student at UCLA")).toEqual(['fact:occupation=student', 'fact:school=ucla']);
  });

  it('does not take a kind of school, or a school\'s town, for its name', () => {
    expect(heuristic('I go to school')).toEqual([]);
    expect(heuristic('I go to high school')).toEqual([]);
    expect(heuristic('I attend a community college')).toEqual([]);
    expect(heuristic('I go to college in Boston')).toEqual([]);
    expect(heuristic('I attend church every Sunday')).toEqual([]);
  });

  it('reads a stated timezone, and only something that looks like one', () => {
    expect(heuristic('My timezone is Asia/Seoul')).toEqual(['fact:timezone=asia/seoul']);
    expect(heuristic("I'm in the KST time zone")).toEqual(['fact:timezone=kst']);
    expect(heuristic('my time zone is UTC+9')).toEqual(['fact:timezone=utc+9']);
    expect(heuristic('My time zone is whatever')).toEqual([]);
  });

  it('reads the primary language from one unhedged language or an explicit "first language"', () => {
    expect(heuristic('I speak Korean')).toEqual(['fact:language_primary=korean']);
    expect(heuristic('My first language is Korean')).toEqual(['fact:language_primary=korean']);
    expect(heuristic('English is my native language')).toEqual(['fact:language_primary=english']);
    expect(heuristic('I speak Spanish fluently')).toEqual(['fact:language_primary=spanish']);
    // a second language, a hedge, several languages: not the primary one
    expect(heuristic('I also speak French')).toEqual([]);
    expect(heuristic('I speak a little Japanese')).toEqual([]);
    expect(heuristic('I speak English and Korean')).toEqual([]);
    expect(heuristic('I speak Klingon')).toEqual([]);
  });
});

describe('extractHeuristic: corrections, negation, the past, questions', () => {
  it('"Actually I live in Busan, not Seoul" yields exactly fact:current_city = busan', () => {
    // given a FACT correction (§12.4 "X, not Y" / "Actually X")
    // when extracted
    // then only the new value, nothing for the rejected one
    expect(extractHeuristic('Actually I live in Busan, not Seoul', AT)).toEqual([
      { type: 'FACT', key: 'fact:current_city', value: 'busan', extractor: 'heuristic' },
    ]);
    expect(heuristic('No, I live in Busan not Seoul.')).toEqual(['fact:current_city=busan']);
    expect(heuristic('Well, I like sushi, not pizza')).toEqual(['pref:food:sushi=like|sushi']);
  });

  it('yields nothing for the past', () => {
    expect(heuristic('I used to live in Seoul')).toEqual([]);
    expect(heuristic('I lived in Seoul')).toEqual([]);
    expect(heuristic('I used to love sushi')).toEqual([]);
    expect(heuristic('I used to be a teacher')).toEqual([]);
  });

  it('yields nothing for negated facts and emotions', () => {
    expect(heuristic("I don't live in Seoul")).toEqual([]);
    expect(heuristic('I no longer live in Seoul')).toEqual([]);
    expect(heuristic("I'm not a teacher")).toEqual([]);
    expect(heuristic("I'm not from Korea")).toEqual([]);
    expect(heuristic("I'm not an introvert")).toEqual([]);
  });

  it('yields nothing for wishes and plans', () => {
    expect(heuristic("I'd love to visit Japan")).toEqual([]);
    expect(heuristic('I want to live in Seoul')).toEqual([]);
    expect(heuristic('I hope to be a nurse one day')).toEqual([]);
  });

  it('yields nothing for questions, but keeps the statements around them', () => {
    expect(heuristic('Do you like sushi?')).toEqual([]);
    expect(heuristic('I live in Seoul?')).toEqual([]);
    expect(heuristic("I'm a nurse. Do you live in Seoul? I hate pizza")).toEqual(['fact:occupation=nurse', 'pref:food:pizza=dislike|pizza']);
  });

  it('yields nothing for chat that only sounds like a statement', () => {
    for (const text of ['I love you', 'I like your style', 'I love how you think', 'I like that idea', "I'm a mess", "I'm a big fan of yours", 'I live in hope', "I'm from the future", 'I moved to a new apartment', "I'm going to the gym", 'I like it when you talk about music']) {
      expect(heuristic(text)).toEqual([]);
    }
  });

  it('yields nothing for statements no key holds', () => {
    expect(heuristic('I have a dog')).toEqual([]);
    expect(heuristic('I am a night person')).toEqual([]);
    expect(heuristic("I'm vegan")).toEqual([]);
    expect(heuristic('My favorite color is blue')).toEqual([]);
    expect(heuristic('I love my mom')).toEqual([]);
    expect(heuristic("I'm happy")).toEqual([]);
    expect(heuristic('')).toEqual([]);
  });
});

describe('extractHeuristic: PREFERENCE', () => {
  it('"I love sushi" is pref:food:sushi = like|sushi; "I hate sushi" the same key, dislike', () => {
    expect(extractHeuristic('I love sushi', AT)).toEqual([{ type: 'PREFERENCE', key: 'pref:food:sushi', value: 'like|sushi', extractor: 'heuristic' }]);
    expect(extractHeuristic('I hate sushi', AT)).toEqual([{ type: 'PREFERENCE', key: 'pref:food:sushi', value: 'dislike|sushi', extractor: 'heuristic' }]);
  });

  it.each([
    ['I like coffee', 'pref:drink:coffee=like|coffee'],
    ['I adore kimchi', 'pref:food:kimchi=like|kimchi'],
    ['I really like jazz', 'pref:music:jazz=like|jazz'],
    ["I'm into K-pop", 'pref:music:kpop=like|k-pop'],
    ['I enjoy listening to metal music.', 'pref:music:metal=like|metal'],
    ['I love country music', 'pref:music:country=like|country'],
    ['I love horror movies', 'pref:movie_genre:horror=like|horror'],
    ['I like playing Minecraft', 'pref:game:minecraft=like|minecraft'],
    ['I love video games', 'pref:game:video_games=like|video games'],
    ['I enjoy playing basketball', 'pref:sport:basketball=like|basketball'],
    ['I like watching football', 'pref:sport:football=like|football'],
    ['I love hiking', 'pref:hobby:hiking=like|hiking'],
    ['I like to go hiking', 'pref:hobby:hiking=like|hiking'],
    ['I like to swim', 'pref:sport:swimming=like|swimming'],
    ['I like to play the guitar', 'pref:hobby:guitar=like|guitar'],
    ['I love reading mystery novels', 'pref:hobby:reading=like|reading'],
    ['I like studying in groups', 'pref:study_style:group_study=like|group study'],
    ['I love Italian food', 'pref:food:italian_food=like|italian food'],
    ['I love spicy ramen', 'pref:food:spicy_ramen=like|spicy ramen'],
    ["I'm a huge baseball fan", 'pref:sport:baseball=like|baseball'],
    ['I am a coffee addict', 'pref:drink:coffee=like|coffee'],
    ['I prefer tea to coffee', 'pref:drink:tea=like|tea'],
    ['I only listen to classical music', 'pref:music:classical=like|classical'],
    ['I learn best with flashcards', 'pref:study_style:flashcards=like|flashcards'],
  ])('reads a like: %s', (text, expected) => {
    expect(heuristic(text)).toEqual([expected]);
  });

  it.each([
    ["I can't stand country music", 'pref:music:country=dislike|country'],
    ["I don't like horror movies", 'pref:movie_genre:horror=dislike|horror'],
    ['I do not like coffee', 'pref:drink:coffee=dislike|coffee'],
    ['I dislike running', 'pref:sport:running=dislike|running'],
    ["I'm not a fan of coffee", 'pref:drink:coffee=dislike|coffee'],
    ["I don't like to cook", 'pref:hobby:cooking=dislike|cooking'],
  ])('reads a dislike: %s', (text, expected) => {
    expect(heuristic(text)).toEqual([expected]);
  });

  it('reads "my favorite <noun> is X" with the category the noun names', () => {
    expect(heuristic('My favorite food is pizza')).toEqual(['pref:food:pizza=like|pizza']);
    expect(heuristic('My favourite drink is soju')).toEqual(['pref:drink:soju=like|soju']);
    expect(heuristic('My favorite band is Metallica')).toEqual(['pref:music:metallica=like|metallica']);
    expect(heuristic('My favorite sport is tennis')).toEqual(['pref:sport:tennis=like|tennis']);
    expect(heuristic('My favorite thing to do is read')).toEqual(['pref:hobby:reading=like|reading']);
    expect(heuristic('Kimchi is my favorite food')).toEqual(['pref:food:kimchi=like|kimchi']);
    expect(heuristic('Sushi is my favorite')).toEqual(['pref:food:sushi=like|sushi']);
    // a favorite movie is a title, not a genre; a color maps to nothing
    expect(heuristic('My favorite movie is Titanic')).toEqual([]);
    expect(heuristic('My favorite movie genre is horror')).toEqual(['pref:movie_genre:horror=like|horror']);
  });

  it('strips articles, possessives and trailing fillers from the item', () => {
    expect(heuristic('I love sushi so much')).toEqual(['pref:food:sushi=like|sushi']);
    expect(heuristic('I really like the pizza a lot')).toEqual(['pref:food:pizza=like|pizza']);
    expect(heuristic('I love my coffee very much')).toEqual(['pref:drink:coffee=like|coffee']);
    expect(heuristic('I like tacos too')).toEqual(['pref:food:tacos=like|tacos']);
    expect(heuristic('I love all kinds of video games')).toEqual(['pref:game:video_games=like|video games']);
  });

  it('splits lists, keeping "and"-phrases whole', () => {
    expect(heuristic('I love mac and cheese, pizza, and tacos')).toEqual([
      'pref:food:mac_and_cheese=like|mac and cheese',
      'pref:food:pizza=like|pizza',
      'pref:food:tacos=like|tacos',
    ]);
    expect(heuristic('I like to cook and bake')).toEqual(['pref:hobby:cooking=like|cooking', 'pref:hobby:baking=like|baking']);
    expect(heuristic('I like to play soccer, read, and draw')).toEqual(['pref:sport:soccer=like|soccer', 'pref:hobby:reading=like|reading', 'pref:hobby:drawing=like|drawing']);
    expect(heuristic('I love tacos and hate spaghetti')).toEqual(['pref:food:tacos=like|tacos', 'pref:food:spaghetti=dislike|spaghetti']);
    expect(heuristic('I love to watch football and hockey')).toEqual(['pref:sport:football=like|football', 'pref:sport:hockey=like|hockey']);
  });

  it('stores nothing for an item with no category, or somebody else\'s thing', () => {
    expect(heuristic('I like Metallica')).toEqual([]);
    expect(heuristic('I love my job')).toEqual([]);
    expect(heuristic('I love it')).toEqual([]);
    expect(heuristic("I love my mom's cooking")).toEqual([]);
    expect(heuristic('I like going to the beach')).toEqual([]);
    expect(heuristic('I like running errands')).toEqual([]);
  });
});

describe('extractHeuristic: RELATIONSHIP_EVENT', () => {
  it.each([
    ['I got a new job!', 'event:work:2026_05:new_job=i got a new job'],
    ['I got promoted', 'event:work:2026_05:promotion=i got promoted'],
    ['I started a new job at Samsung', 'event:work:2026_05:new_job=i started a new job at samsung'],
    ['I quit my job', 'event:work:2026_05:quit_job=i quit my job'],
    ['I have a job interview tomorrow', 'event:work:2026_05:job_interview=i have a job interview tomorrow'],
    ['I have an exam tomorrow', 'event:school:2026_05:exam=i have an exam tomorrow'],
    ['My exam is on Friday', 'event:school:2026_05:exam=my exam is on friday'],
    ['I finished my exams', 'event:school:2026_05:finished_exams=i finished my exams'],
    ['I graduated last week', 'event:school:2026_05:graduated=i graduated last week'],
    ['I went to Japan last month', 'event:travel:2026_04:japan=i went to japan last month'],
    ['I traveled to Jeju', 'event:travel:2026_05:jeju=i traveled to jeju'],
    ['I visited Paris', 'event:travel:2026_05:paris=i visited paris'],
    ['I broke up with my boyfriend', 'event:relationship:2026_05:breakup=i broke up with my boyfriend'],
    ['My girlfriend and I broke up', 'event:relationship:2026_05:breakup=my girlfriend and i broke up'],
    ['I got married', 'event:relationship:2026_05:married=i got married'],
    ['I got engaged', 'event:relationship:2026_05:engaged=i got engaged'],
    ["I'm getting married next month", "event:relationship:2026_06:getting_married=i'm getting married next month"],
    ['I started dating someone', 'event:relationship:2026_05:started_dating=i started dating someone'],
    ['My mom passed away', 'event:family:2026_05:mom_passed_away=my mom passed away'],
    ['My sister had a baby', 'event:family:2026_05:sister_baby=my sister had a baby'],
    ['I had a baby', 'event:family:2026_05:baby=i had a baby'],
    ['My dad got sick', 'event:family:2026_05:dad_sick=my dad got sick'],
    ['I got sick', 'event:health:2026_05:sick=i got sick'],
    ['I broke my arm', 'event:health:2026_05:broke_arm=i broke my arm'],
    ['I had knee surgery', 'event:health:2026_05:knee_surgery=i had knee surgery'],
    ['I caught the flu', 'event:health:2026_05:flu=i caught the flu'],
  ])('%s', (text, expected) => {
    expect(heuristic(text)).toEqual([expected]);
  });

  it('buckets an event by the month of `at`', () => {
    expect(extractHeuristic('I got promoted', new Date('2025-12-31T23:59:59Z'))[0]?.key).toBe('event:work:2025_12:promotion');
  });

  it('keeps the event summary short', () => {
    const [c] = extractHeuristic(`I went to Japan ${'with my friends and family '.repeat(10)}`, AT);
    expect(Array.from(c!.value).length).toBeLessThanOrEqual(120);
  });

  it('does not take an errand, a person or a feeling for an event', () => {
    expect(heuristic('I went to the store')).toEqual([]);
    expect(heuristic('I went to bed early')).toEqual([]);
    expect(heuristic('I visited my grandma')).toEqual([]);
    expect(heuristic('I just got back from vacation')).toEqual([]);
    expect(heuristic('I am sick of my job')).toEqual([]);
    expect(heuristic('I was hurt by my friend')).toEqual([]);
    expect(heuristic('I have a blood test')).toEqual([]);
    expect(heuristic("I didn't get the job")).toEqual([]);
    expect(heuristic('I failed my driving test')).toEqual([]);
    expect(heuristic('My cat died')).toEqual([]);
  });
});

describe('extractHeuristic: EMOTIONAL_PATTERN', () => {
  it('reads social_energy only from an explicit introvert/extrovert statement', () => {
    expect(heuristic("I'm an introvert")).toEqual(['emotion:social_energy=introvert']);
    expect(heuristic("I'm a bit of an introvert")).toEqual(['emotion:social_energy=introvert']);
    expect(heuristic('I am extroverted')).toEqual(['emotion:social_energy=extrovert']);
    expect(heuristic("I'm shy")).toEqual([]);
    expect(heuristic('I like being alone')).toEqual([]);
  });

  it('reads school and work stress triggers', () => {
    expect(heuristic('Exams stress me out')).toEqual(['emotion:stress_trigger_school=exams']);
    expect(heuristic('I get stressed about school')).toEqual(['emotion:stress_trigger_school=school']);
    expect(heuristic('Homework makes me anxious')).toEqual(['emotion:stress_trigger_school=homework']);
    expect(heuristic('My boss stresses me out')).toEqual(['emotion:stress_trigger_work=my boss']);
    expect(heuristic('Work is so stressful')).toEqual(['emotion:stress_trigger_work=work']);
    expect(heuristic('School is stressing me out')).toEqual(['emotion:stress_trigger_school=school']);
    expect(heuristic('Lately my job has been really stressful')).toEqual(['emotion:stress_trigger_work=my job']);
    expect(heuristic("I'm an introvert and exams stress me out")).toEqual(['emotion:social_energy=introvert', 'emotion:stress_trigger_school=exams']);
    expect(heuristic('Being a school teacher stresses me out')).toEqual(['emotion:stress_trigger_work=being a school teacher']);
    expect(heuristic('Traffic stresses me out')).toEqual([]);
  });

  it('reads coping preferences', () => {
    expect(heuristic("When I'm stressed, I like to go for a run")).toEqual(['emotion:coping_preference=go for a run']);
    expect(heuristic("When I'm anxious I listen to music")).toEqual(['emotion:coping_preference=listen to music']);
    expect(heuristic('Music helps me relax')).toEqual(['emotion:coping_preference=music']);
    expect(heuristic('Yoga helps me calm down')).toEqual(['emotion:coping_preference=yoga']);
    expect(heuristic('I read books to relax')).toEqual(['emotion:coping_preference=read books']);
    // a reaction or a wish is not a coping preference
    expect(heuristic("When I'm stressed I can't sleep")).toEqual([]);
    expect(heuristic('I need to relax')).toEqual([]);
    expect(heuristic('It helps me relax')).toEqual([]);
  });

  it('reads a baseline mood only when it is habitual', () => {
    expect(heuristic("I'm usually a happy person")).toEqual(['emotion:baseline_mood=happy']);
    expect(heuristic('I am generally anxious')).toEqual(['emotion:baseline_mood=anxious']);
    expect(heuristic('I am an optimistic person')).toEqual(['emotion:baseline_mood=optimistic']);
    expect(heuristic("I'm happy today")).toEqual([]);
    expect(heuristic("I'm not usually happy")).toEqual([]);
  });
});

describe('extractHeuristic: messages', () => {
  it('extracts from every sentence and clause of a message', () => {
    expect(heuristic("I'm from Korea and I live in Seoul. I love kimchi; my favorite band is BTS!")).toEqual([
      'fact:home_country=south korea',
      'fact:current_city=seoul',
      'pref:food:kimchi=like|kimchi',
      'pref:music:bts=like|bts',
    ]);
  });

  it('dedupes the same key and value within one message, keeps different values', () => {
    expect(heuristic('I love sushi. I really love sushi!')).toEqual(['pref:food:sushi=like|sushi']);
    expect(heuristic('I love sushi. I hate sushi.')).toEqual(['pref:food:sushi=like|sushi', 'pref:food:sushi=dislike|sushi']);
  });

  it('reads typographic apostrophes and missing ones alike', () => {
    expect(heuristic('I’m from Japan')).toEqual(['fact:home_country=japan']);
    expect(heuristic('im from japan')).toEqual(['fact:home_country=japan']);
    expect(heuristic('i dont like coffee')).toEqual(['pref:drink:coffee=dislike|coffee']);
  });

  it('is deterministic', () => {
    const text = 'I live in Seoul and I love sushi. I got promoted!';
    expect(extractHeuristic(text, AT)).toEqual(extractHeuristic(text, AT));
  });

  it('marks every candidate heuristic and gives it a key parseKey accepts, of the type it names', () => {
    const texts = [
      'Actually I live in Busan, not Seoul',
      "I'm an art teacher from Japan. I love hiking and jazz, and I hate coffee.",
      'I went to Tokyo. My mom had surgery. I got engaged!',
      "I'm an introvert and exams stress me out. When I'm stressed, I read.",
      'My favorite food is 김치 찌개',
    ];
    const all: Candidate[] = texts.flatMap((t) => extractHeuristic(t, AT));
    expect(all.length).toBeGreaterThanOrEqual(12);
    for (const c of all) {
      expect(c.extractor).toBe('heuristic');
      expect(parseKey(c.key)?.type).toBe(c.type);
      expect(c.value).not.toBe('');
    }
    expect(all).toContainEqual({ type: 'PREFERENCE', key: 'pref:food:김치_찌개', value: 'like|김치 찌개', extractor: 'heuristic' });
  });
});

describe('extractOffline', () => {
  it('runs the heuristic patterns, marked offline', () => {
    expect(extractOffline('I love sushi', AT)).toEqual([{ type: 'PREFERENCE', key: 'pref:food:sushi', value: 'like|sushi', extractor: 'offline' }]);
  });

  it('adds the broader patterns the heuristic skips', () => {
    // given habits, past trips and unlisted job nouns
    // then the offline stand-in reads them; the heuristic does not
    const broader: [string, string][] = [
      ['I play basketball', 'pref:sport:basketball=like|basketball'],
      ['I play the guitar', 'pref:hobby:guitar=like|guitar'],
      ['I eat meat frequently', 'pref:food:meat=like|meat'],
      ['I drink coffee every morning', 'pref:drink:coffee=like|coffee'],
      ["I've been to Paris", 'event:travel:2026_05:paris=i\'ve been to paris'],
      ["I'm a juggler", 'fact:occupation=juggler'],
      ['I study biology', 'fact:major=biology'],
      ['I majored in history', 'fact:major=history'],
      ["I'm stressed about my exams", 'emotion:stress_trigger_school=my exams'],
    ];
    for (const [text, expected] of broader) {
      expect(offline(text)).toEqual([expected]);
      expect(heuristic(text)).toEqual([]);
    }
  });

  it('still stores nothing unmappable', () => {
    expect(offline('I have a dog')).toEqual([]);
    expect(offline('I am a night person')).toEqual([]);
    expect(offline("I'm vegan")).toEqual([]);
    expect(offline('I like listening to my neighbors fight')).toEqual([]);
    expect(offline("I'm a vegetarian")).toEqual([]);
    expect(offline('I eat healthy')).toEqual([]);
    expect(offline('I drink socially')).toEqual([]);
    expect(offline('I play shortstop')).toEqual([]);
    expect(offline('I play basketball and run')).toEqual(['pref:sport:basketball=like|basketball']);
  });
});

describe('keysForTarget ("forget X", §12.4 #3)', () => {
  it.each([
    ['that I live in Seoul', ['fact:current_city']],
    ['where I live', ['fact:current_city']],
    ['my city', ['fact:current_city']],
    ['my job', ['fact:occupation']],
    ['what I do for a living', ['fact:occupation']],
    ['my occupation', ['fact:occupation']],
    ['my school', ['fact:school']],
    ['my major', ['fact:major']],
    ['my hometown', ['fact:home_city', 'fact:home_country']],
    ["that I'm from Korea", ['fact:home_country']],
    ['my timezone', ['fact:timezone']],
    ['my first language', ['fact:language_primary']],
    ['sushi', ['pref:food:sushi']],
    ['that I love sushi', ['pref:food:sushi']],
    ['about the sushi thing please', ['pref:food:sushi']],
    ['that I hate coffee', ['pref:drink:coffee']],
    ['the fact that i hate coffee', ['pref:drink:coffee']],
    ['my coffee thing', ['pref:drink:coffee']],
    ['that i live in seoul', ['fact:current_city']],
    ['hiking', ['pref:hobby:hiking']],
    ["that I'm an introvert", ['emotion:social_energy']],
    ['that I broke up with my girlfriend', ['event:relationship:2026_05:breakup']],
  ])('%s → %j', (phrase, keys) => {
    expect(keysForTarget(phrase, AT)).toEqual(keys);
  });

  it('returns the slug under every category when the item has no known category', () => {
    expect(keysForTarget('Metallica', AT)).toEqual([
      'pref:food:metallica',
      'pref:drink:metallica',
      'pref:music:metallica',
      'pref:movie_genre:metallica',
      'pref:game:metallica',
      'pref:sport:metallica',
      'pref:hobby:metallica',
      'pref:study_style:metallica',
    ]);
  });

  it('returns [] when nothing maps', () => {
    expect(keysForTarget('', AT)).toEqual([]);
    expect(keysForTarget('that', AT)).toEqual([]);
    expect(keysForTarget('it', AT)).toEqual([]);
    expect(keysForTarget('everything', AT)).toEqual([]);
    expect(keysForTarget('what I said yesterday', AT)).toEqual([]);
    expect(keysForTarget('🍕', AT)).toEqual([]);
    expect(keysForTarget('my favorite food', AT)).toEqual([]);
    expect(keysForTarget('my ex', AT)).toEqual([]);
    expect(keysForTarget('that I have a dog', AT)).toEqual([]);
  });

  it('returns only keys parseKey accepts', () => {
    for (const phrase of ['sushi', 'my hometown', 'Metallica', 'that I went to Japan', '김치']) {
      for (const key of keysForTarget(phrase, AT)) expect(parseKey(key)).not.toBeNull();
    }
  });
});

describe('lexicon', () => {
  it('names no preference item in two categories', () => {
    // given the preference lists, each a category
    const lists: [string, readonly L.LexiconEntry[]][] = [
      ['study_style', L.STUDY_STYLES],
      ['game', L.GAMES],
      ['sport', L.SPORTS],
      ['movie_genre', L.MOVIE_GENRES_BARE],
      ['music', L.MUSIC_GENRES],
      ['drink', L.DRINKS],
      ['food', L.FOODS],
      ['hobby', [...L.HOBBIES, ...L.INSTRUMENTS]],
    ];
    // when every form is collected by category
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const [category, list] of lists) {
      for (const entry of list) {
        for (const form of typeof entry === 'string' ? [entry] : entry) {
          const f = form.toLowerCase();
          const prev = owner.get(f);
          if (prev && prev !== category) clashes.push(`${f}: ${prev} / ${category}`);
          owner.set(f, category);
        }
      }
    }
    // then no form belongs to two categories
    expect(clashes).toEqual([]);
  });
});
