// LoCoMo asks about the user in the third person ("When did Priya go to the
// beekeeping workshop?"); the eval asks the friend as the user would:
// "Do you remember: when did I go to the beekeeping workshop?". One fixed
// frame around the question, so every item is asked the same way; inside it,
// the user's name and the pronouns that stand for them become first person,
// with the auxiliary or verb that agrees with "I".

/** What the eval puts before every rewritten question. */
export const RECALL_PREFIX = 'Do you remember: ';

/** Words after which a name (or he/she) is the subject of an inverted question: "did Priya go". */
const AUXILIARIES: ReadonlySet<string> = new Set([
  'do', 'does', 'did', 'is', 'was', 'are', 'were', 'has', 'have', 'had', 'will', 'would', 'can', 'could', 'should', 'shall', 'may', 'might', 'must',
]);

/** Words after which a name starts a clause, so is its subject: "what Oskar thinks", "when Priya was". */
const CLAUSE_STARTS: ReadonlySet<string> = new Set([
  'what', 'when', 'where', 'why', 'how', 'who', 'which', 'that', 'while', 'if', 'because', 'since', 'until', 'once', 'and', 'or', 'but', 'so',
]);

/** "I" agrees differently with these: "does Priya" → "do I", "Priya is" → "I am". */
const AGREEMENT: Readonly<Record<string, string>> = { does: 'do', is: 'am', has: 'have' };

/** First words the frame lowercases ("Do you remember: when …"); a name keeps its capital. */
const LOWERCASE_FIRST: ReadonlySet<string> = new Set([...AUXILIARIES, ...CLAUSE_STARTS, 'whose', 'whom', 'in', 'on', 'at', 'for', 'from', 'after', 'before', 'during', 'according', 'besides']);

/** Words ending in -s after a subject that are not third-person verbs ("Priya always goes"). */
const NOT_VERBS: ReadonlySet<string> = new Set(['always', 'sometimes', 'perhaps', 'as', 'is', 'was', 'has', 'does', 'this', 'thus', 'plus', 'us', 'its', 'less', 'unless', 'across', 'towards', 'afterwards', 'nevertheless']);

/** Adverbs between a subject and its verb ("Priya often goes"): the verb after them agrees. */
const ADVERBS: ReadonlySet<string> = new Set(['often', 'always', 'never', 'still', 'also', 'usually', 'sometimes', 'just', 'now', 'ever', 'already', 'even', 'mostly', 'really']);

/** Prepositions after a name joined by "and"/"or" that show the pair is an object ("with Hana and Kenji to"). */
const AFTER_OBJECT: ReadonlySet<string> = new Set(['to', 'for', 'with', 'about', 'in', 'on', 'at', 'from', 'by', 'of', 'into', 'over', 'after', 'before']);

/** Words after "her" that show it is an object ("gave her a book"), not a possessive ("her bike"). */
const AFTER_OBJECT_HER: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'to', 'for', 'with', 'about', 'in', 'on', 'at', 'from', 'by', 'of', 'into', 'up', 'out', 'off', 'back', 'and', 'or', 'that', 'this',
  'when', 'while', 'if', 'so', 'some', 'any', 'feel', 'get', 'go', 'do', 'make', 'decide', 'start', 'want', 'be',
]);

interface Token {
  /** Text before the word (spaces, opening punctuation). */
  lead: string;
  word: string;
  /** Text after the word up to the next one (punctuation). */
  trail: string;
}

const TOKEN = /([^\p{L}\p{N}]*)([\p{L}\p{N}]+(?:['’`][\p{L}]+)*)/gu;
const APOSTROPHE = /^['’`]/;

function tokenize(text: string): { tokens: Token[]; rest: string } {
  const tokens: Token[] = [];
  let end = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (tokens.length > 0 && m[1]!.length > 0) {
      // The separator belongs to the word before as trailing punctuation, up to the first space.
      const sep = m[1]!;
      const space = sep.search(/\s/u);
      const cut = space < 0 ? sep.length : space;
      tokens[tokens.length - 1]!.trail = sep.slice(0, cut);
      tokens.push({ lead: sep.slice(cut), word: m[2]!, trail: '' });
    } else {
      tokens.push({ lead: m[1]!, word: m[2]!, trail: '' });
    }
    end = m.index + m[0].length;
  }
  return { tokens, rest: text.slice(end) };
}

function sameCase(model: string, word: string): string {
  return model[0] !== undefined && model[0] === model[0].toUpperCase() && model[0] !== model[0].toLowerCase() ? word[0]!.toUpperCase() + word.slice(1) : word;
}

/** "thinks" → "think", "goes" → "go", "tries" → "try"; anything else as it is. */
export function baseForm(verb: string): string {
  const v = verb.toLowerCase();
  if (NOT_VERBS.has(v) || !v.endsWith('s') || v.endsWith('ss') || v.length < 3) return verb;
  if (/[^aeiou]ies$/.test(v)) return verb.slice(0, -3) + 'y';
  if (/(?:sh|ch|ss|x|z|o)es$/.test(v)) return verb.slice(0, -2);
  return verb.slice(0, -1);
}

/**
 * Rewrites a LoCoMo question about `user` (their first name as the dataset
 * spells it) into a first-person recall question. Deterministic and pure.
 */
export function toRecallQuestion(question: string, user: string): string {
  const { tokens, rest } = tokenize(question.trim());
  const name = user.toLowerCase();
  const isName = (t: Token) => t.word.toLowerCase() === name || t.word.toLowerCase().replace(/['’`]s$/u, '') === name;
  // Pronouns stand for the user only when the question names them.
  const aboutUser = tokens.some(isName);

  const out: Token[] = [];
  /** An "I" was made from a subject not preceded by an auxiliary: the next word, a verb, agrees with it. */
  let agreeNext = false;
  for (const [i, t] of tokens.entries()) {
    const lower = t.word.toLowerCase();
    const prev = out[out.length - 1];
    const prevLower = prev?.word.toLowerCase();
    const next = tokens[i + 1];
    const possessiveName = lower !== name && lower.replace(/['’`]s$/u, '') === name;
    const bareApostrophe = lower === name && APOSTROPHE.test(t.trail);

    if (agreeNext && ADVERBS.has(lower)) {
      out.push(t);
      continue;
    }
    if (agreeNext) {
      agreeNext = false;
      const agreed = AGREEMENT[lower];
      if (agreed) {
        out.push({ ...t, word: sameCase(t.word, agreed) });
        continue;
      }
      if (!prev?.trail) {
        out.push({ ...t, word: baseForm(t.word) });
        continue;
      }
    }

    if (possessiveName || bareApostrophe) {
      out.push({ lead: t.lead, word: 'my', trail: bareApostrophe ? t.trail.replace(APOSTROPHE, '') : t.trail });
      continue;
    }
    const subjectPronoun = aboutUser && (lower === 'she' || lower === 'he');
    if (lower === name || subjectPronoun) {
      const afterAux = prevLower !== undefined && AUXILIARIES.has(prevLower) && !prev!.trail;
      const nextLower = t.trail === '' ? next?.word.toLowerCase() : undefined;
      // A verb right after the name makes it a subject wherever it stands ("the class Priya signed up for").
      const verbNext = nextLower !== undefined && (AUXILIARIES.has(nextLower) || /[^e]ed$/.test(nextLower));
      const joined = prevLower === 'and' || prevLower === 'or';
      const subject =
        prevLower === undefined ||
        afterAux ||
        subjectPronoun ||
        verbNext ||
        prev!.trail !== '' ||
        (joined ? nextLower !== undefined && !AFTER_OBJECT.has(nextLower) : CLAUSE_STARTS.has(prevLower));
      if (subject) {
        if (afterAux) {
          const agreed = AGREEMENT[prevLower];
          if (agreed) out[out.length - 1] = { ...prev!, word: sameCase(prev!.word, agreed) };
        } else {
          agreeNext = true;
        }
        out.push({ ...t, word: 'I' });
      } else {
        out.push({ ...t, word: 'me' });
      }
      continue;
    }
    if (aboutUser) {
      if (lower === 'his') {
        out.push({ ...t, word: 'my' });
        continue;
      }
      if (lower === 'him') {
        out.push({ ...t, word: 'me' });
        continue;
      }
      if (lower === 'hers') {
        out.push({ ...t, word: 'mine' });
        continue;
      }
      if (lower === 'herself' || lower === 'himself') {
        out.push({ ...t, word: 'myself' });
        continue;
      }
      if (lower === 'her') {
        const object = next === undefined || t.trail !== '' || AFTER_OBJECT_HER.has(next.word.toLowerCase());
        out.push({ ...t, word: object ? 'me' : 'my' });
        continue;
      }
    }
    out.push(t);
  }

  let body = out.map((t) => t.lead + t.word + t.trail).join('') + rest;
  // After the frame's colon the question goes on in lowercase, except "I" and names.
  const first = out[0]?.word.toLowerCase();
  if (first !== undefined && LOWERCASE_FIRST.has(first) && out[0]!.word !== 'I') body = body.charAt(0).toLowerCase() + body.slice(1);
  if (!/[?]$/.test(body)) body = body.replace(/[.!]*$/, '?');
  return RECALL_PREFIX + body;
}
