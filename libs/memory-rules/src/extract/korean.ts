/**
 * Korean first-person statements (issue 15): FACT and PREFERENCE keys of
 * §12.3.1 from the common forms — "저는 서울에 살아요", "부산 출신이에요",
 * "저는 간호사예요", "제 전공은 경영학이에요", "김치를 좋아해요", "오이를
 * 싫어해요". Values keep the Hangul (§12.3.1: no romanization). The tables are
 * data; each pattern is anchored on the first-person subject or topic so that
 * "친구가 서울에 살아요" (a friend lives in Seoul) keys nothing. Pure.
 */
import type { FactField, PreferenceCategory } from '../config.js';
import { canonicalText, factKey, preferenceKey, preferenceValue } from '../keys.js';
import type { Candidate } from '../types.js';

// "저는", "나는", "전", "난", "제가", "내가", or nothing before the predicate.
const SELF = String.raw`(?:(?:저는|나는|전|난|제가|내가|저도|나도)\s*)?`;
const NOUN = String.raw`([\p{Script=Hangul}A-Za-z0-9][\p{Script=Hangul}A-Za-z0-9 ]{0,23}?)`;
// Copula endings: 이에요/예요/입니다/이야/야/이다.
// One word (a place name), so "친구가 서울에 살아요" (a friend's city) never matches.
const WORD = String.raw`([\p{Script=Hangul}A-Za-z]{1,12})`;
const COPULA = String.raw`\s*(?:이에요|예요|에요|입니다|이야|야|이다|이고|인데)`;

/** Items whose category is known, Hangul as written. */
export const KO_ITEMS: Readonly<Record<string, PreferenceCategory>> = {
  김치: 'food', 김치찌개: 'food', 된장찌개: 'food', 비빔밥: 'food', 불고기: 'food', 삼겹살: 'food', 떡볶이: 'food', 치킨: 'food', 피자: 'food', 라면: 'food', 초밥: 'food', 스시: 'food', 오이: 'food', 고수: 'food', 짜장면: 'food', 짬뽕: 'food', 냉면: 'food', 김밥: 'food', 파스타: 'food', 햄버거: 'food', 회: 'food', 떡: 'food', 마라탕: 'food',
  커피: 'drink', 차: 'drink', 녹차: 'drink', 맥주: 'drink', 소주: 'drink', 막걸리: 'drink', 와인: 'drink', 우유: 'drink', 콜라: 'drink', 주스: 'drink', 아메리카노: 'drink', 라떼: 'drink',
  케이팝: 'music', 재즈: 'music', 클래식: 'music', 힙합: 'music', 록: 'music', 발라드: 'music', 트로트: 'music', 인디: 'music',
  공포영화: 'movie_genre', 로맨스: 'movie_genre', 코미디: 'movie_genre', 액션영화: 'movie_genre', 애니메이션: 'movie_genre', 다큐멘터리: 'movie_genre',
  게임: 'game', 롤: 'game', 마인크래프트: 'game', 배틀그라운드: 'game', 오버워치: 'game', 스타크래프트: 'game', 보드게임: 'game',
  축구: 'sport', 야구: 'sport', 농구: 'sport', 배구: 'sport', 테니스: 'sport', 수영: 'sport', 골프: 'sport', 탁구: 'sport', 배드민턴: 'sport', 요가: 'sport', 클라이밍: 'sport', 스키: 'sport',
  독서: 'hobby', 등산: 'hobby', 요리: 'hobby', 그림: 'hobby', 여행: 'hobby', 사진: 'hobby', 노래: 'hobby', 춤: 'hobby', 캠핑: 'hobby', 산책: 'hobby', 낚시: 'hobby', 뜨개질: 'hobby', 글쓰기: 'hobby', 피아노: 'hobby', 기타: 'hobby', 달리기: 'hobby', 러닝: 'hobby', 자전거: 'hobby',
};

const OCCUPATIONS = new Set(['학생', '대학생', '대학원생', '고등학생', '중학생', '교사', '선생님', '간호사', '의사', '개발자', '프로그래머', '디자이너', '회사원', '직장인', '공무원', '엔지니어', '변호사', '요리사', '셰프', '약사', '기자', '작가', '배우', '가수', '경찰', '소방관', '군인', '자영업자', '사업가', '주부', '프리랜서', '연구원', '교수', '은행원', '마케터', '바리스타', '미용사', '회계사', '번역가', '간호조무사', '치과의사', '수의사', '상담사', '사회복지사', '트레이너', '운전기사']);

const LANGUAGES: Readonly<Record<string, string>> = { 한국어: 'korean', 영어: 'english', 일본어: 'japanese', 중국어: 'chinese', 스페인어: 'spanish', 프랑스어: 'french', 독일어: 'german', 베트남어: 'vietnamese' };

const LIKE = String.raw`\s*(?:을|를)?\s*(?:정말\s*|진짜\s*|너무\s*|완전\s*|엄청\s*|아주\s*|제일\s*|가장\s*)*(좋아해요|좋아해|좋아합니다|좋아한다|사랑해요|사랑해|즐겨요|즐겨\s*먹어요|즐겨\s*해요|싫어해요|싫어해|싫어합니다|싫어한다|별로예요|못\s*먹어요)`;

type Rule = { re: RegExp; run(m: RegExpExecArray): Candidate | null };

function fact(field: FactField, value: string): Candidate {
  return { type: 'FACT', key: factKey(field), value: canonicalText(value), extractor: 'heuristic' };
}

function pref(item: string, verb: string): Candidate | null {
  const name = item.trim().replace(/\s+/g, ' ');
  const category = KO_ITEMS[name.replace(/\s/g, '')];
  if (!category) return null;
  const key = preferenceKey(category, name);
  const stance = /싫어|별로|못/.test(verb) ? 'dislike' : 'like';
  return key ? { type: 'PREFERENCE', key, value: preferenceValue(stance, name), extractor: 'heuristic' } : null;
}

const RULES: readonly Rule[] = [
  { re: new RegExp(String.raw`^${SELF}(?:지금\s*|요즘\s*|현재\s*)?${WORD}에(?:서)?\s*(?:살아요|살아|살고\s*있어요|살고\s*있습니다|삽니다|살고\s*있어)$`, 'u'), run: (m) => fact('current_city', m[1]!) },
  { re: new RegExp(String.raw`^${SELF}${WORD}\s*출신${COPULA}$`, 'u'), run: (m) => fact(/국$|^한국$|^미국$|^일본$|^중국$/.test(m[1]!) ? 'home_country' : 'home_city', m[1]!) },
  { re: new RegExp(String.raw`^${SELF}${WORD}\s*사람${COPULA}$`, 'u'), run: (m) => (/^(?:한국|미국|일본|중국|영국|캐나다|호주|독일|프랑스|베트남|필리핀|태국)$/.test(m[1]!) ? fact('home_country', m[1]!) : null) },
  { re: new RegExp(String.raw`^(?:제|내)\s*직업은\s*${NOUN}${COPULA}$`, 'u'), run: (m) => fact('occupation', m[1]!) },
  { re: new RegExp(String.raw`^${SELF}${NOUN}${COPULA}$`, 'u'), run: (m) => (OCCUPATIONS.has(m[1]!.replace(/\s/g, '')) ? fact('occupation', m[1]!) : null) },
  { re: new RegExp(String.raw`^(?:제|내)\s*전공은\s*${NOUN}${COPULA}$`, 'u'), run: (m) => fact('major', m[1]!) },
  { re: new RegExp(String.raw`^${SELF}${NOUN}(?:을|를)\s*전공(?:하고\s*있어요|해요|합니다|했어요)$`, 'u'), run: (m) => fact('major', m[1]!) },
  { re: new RegExp(String.raw`^${SELF}${NOUN}(?:대학교|대학|고등학교)에\s*(?:다녀요|다니고\s*있어요|다닙니다|다녀)$`, 'u'), run: (m) => fact('school', `${m[1]!.trim()}${/고등학교/.test(m[0]) ? '고등학교' : '대학교'}`) },
  { re: new RegExp(String.raw`^(?:제|내)\s*(?:모국어|첫\s*언어)는\s*${NOUN}${COPULA}$`, 'u'), run: (m) => (LANGUAGES[m[1]!.trim()] ? fact('language_primary', LANGUAGES[m[1]!.trim()]!) : null) },
  { re: new RegExp(String.raw`^${SELF}${NOUN}${LIKE}$`, 'u'), run: (m) => pref(m[1]!, m[2]!) },
  { re: new RegExp(String.raw`^(?:제가|내가)\s*(?:제일\s*|가장\s*)?좋아하는\s*(?:음식|음료|운동|취미|게임|음악)은\s*${NOUN}${COPULA}$`, 'u'), run: (m) => pref(m[1]!, '좋아해요') },
];

/** Korean first-person FACT and PREFERENCE candidates of a message (sentence by sentence). */
export function extractKorean(text: string): Candidate[] {
  if (!/\p{Script=Hangul}/u.test(text)) return [];
  const out: Candidate[] = [];
  for (const raw of text.normalize('NFKC').match(/[^.!?…\n]+[.!?…]*/gu) ?? []) {
    if (raw.includes('?')) continue;
    const s = raw.replace(/[.!…\s~^ㅎㅋㅠㅜ]+$/u, '').trim();
    if (s === '') continue;
    for (const rule of RULES) {
      const m = rule.re.exec(s);
      const c = m ? rule.run(m) : null;
      if (c && c.value !== '' && !out.some((o) => o.key === c.key && o.value === c.value)) {
        out.push(c);
        break;
      }
    }
  }
  return out;
}
