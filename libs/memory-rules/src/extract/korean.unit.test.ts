import { extractKorean } from './korean.js';

const keyed = (text: string) => extractKorean(text).map((c) => `${c.key}=${c.value}`);

describe('extractKorean', () => {
  it('reads first-person FACT statements', () => {
    expect(keyed('저는 서울에 살아요')).toEqual(['fact:current_city=서울']);
    expect(keyed('요즘 부산에 살고 있어요')).toEqual(['fact:current_city=부산']);
    expect(keyed('부산 출신이에요')).toEqual(['fact:home_city=부산']);
    expect(keyed('저는 한국 사람이에요')).toEqual(['fact:home_country=한국']);
    expect(keyed('저는 간호사예요')).toEqual(['fact:occupation=간호사']);
    expect(keyed('제 전공은 경영학이에요')).toEqual(['fact:major=경영학']);
    expect(keyed('제 모국어는 한국어예요')).toEqual(['fact:language_primary=korean']);
  });

  it('reads likes and dislikes as PREFERENCE keys with the Hangul kept (§12.3.1: no romanization)', () => {
    expect(keyed('김치를 정말 좋아해요')).toEqual(['pref:food:김치=like|김치']);
    expect(keyed('오이를 싫어해요. 저는 축구를 좋아해')).toEqual(['pref:food:오이=dislike|오이', 'pref:sport:축구=like|축구']);
    expect(keyed('제가 제일 좋아하는 음식은 떡볶이예요')).toEqual(['pref:food:떡볶이=like|떡볶이']);
  });

  it('keys nothing for questions, other people, or items of no known category', () => {
    expect(keyed('커피를 좋아해요?')).toEqual([]);
    expect(keyed('친구가 서울에 살아요')).toEqual([]);
    expect(keyed('저는 학교가 좋아요')).toEqual([]);
    expect(keyed('I live in Seoul')).toEqual([]);
  });
});
