/**
 * Words that say nothing about what a message or a memory is about (issue 15:
 * relevance needs a shared word that carries content). Matched on the word and
 * on its stem, so "going" goes with "go". Data, not rules: extend freely.
 */
export const STOP_WORDS: readonly string[] = [
  // function words
  'a', 'an', 'the', 'and', 'or', 'but', 'nor', 'if', 'then', 'than', 'so', 'as', 'because', 'since', 'while', 'though', 'although', 'until', 'unless',
  'of', 'to', 'in', 'on', 'at', 'by', 'for', 'with', 'without', 'from', 'into', 'onto', 'about', 'above', 'below', 'over', 'under', 'up', 'down', 'out',
  'off', 'through', 'during', 'before', 'after', 'between', 'against', 'around', 'among', 'across', 'toward', 'towards', 'upon', 'via', 'per',
  'is', 'am', 'are', 'was', 'were', 'be', 'been', 'being', 'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must', 'ought',
  'do', 'does', 'did', 'done', 'doing', 'have', 'has', 'had', 'having',
  'not', 'no', 'yes', 'yeah', 'yep', 'nope', 'ok', 'okay', 'oh', 'ah', 'um', 'uh', 'hmm', 'lol', 'haha', 'hey', 'hi', 'hello', 'wow', 'omg', 'please', 'thanks', 'thank',
  'i', 'me', 'my', 'mine', 'myself', 'im', 'ive', 'id', 'ill', 'you', 'your', 'yours', 'yourself', 'youre', 'youve', 'u', 'ur',
  'we', 'us', 'our', 'ours', 'ourselves', 'he', 'him', 'his', 'himself', 'she', 'her', 'hers', 'herself', 'it', 'its', 'itself', 'thats', 'theyre',
  'they', 'them', 'their', 'theirs', 'themselves', 'this', 'that', 'these', 'those', 'there', 'here', 'what', 'which', 'who', 'whom', 'whose',
  'when', 'where', 'why', 'how', 'whats', 'dont', 'doesnt', 'didnt', 'cant', 'wont', 'isnt', 'arent', 'wasnt', 'werent', 'havent', 'hasnt', 'shouldnt', 'couldnt', 'wouldnt',
  'all', 'any', 'both', 'each', 'every', 'few', 'more', 'most', 'other', 'others', 'some', 'such', 'own', 'same', 'another', 'either', 'neither',
  'only', 'just', 'also', 'too', 'very', 'really', 'quite', 'pretty', 'much', 'many', 'lot', 'lots', 'bit', 'even', 'still', 'again', 'already',
  'ever', 'never', 'always', 'often', 'sometimes', 'usually', 'maybe', 'perhaps', 'probably', 'actually', 'basically', 'literally', 'totally', 'definitely',
  'well', 'like', 'likes', 'liked', 'love', 'loved', 'loves', 'dislike', 'dislikes', 'kinda', 'sorta', 'gonna', 'wanna', 'gotta',
  // verbs of any talk
  'get', 'gets', 'got', 'gotten', 'getting', 'go', 'goes', 'went', 'gone', 'going', 'come', 'comes', 'came', 'coming', 'make', 'makes', 'made', 'making',
  'take', 'takes', 'took', 'taken', 'taking', 'give', 'gave', 'given', 'put', 'keep', 'kept', 'let', 'say', 'says', 'said', 'tell', 'tells', 'told',
  'talk', 'talked', 'talking', 'ask', 'asked', 'know', 'knew', 'known', 'think', 'thought', 'feel', 'feels', 'felt', 'feeling', 'want', 'wanted', 'need', 'needed',
  'see', 'saw', 'seen', 'look', 'looked', 'seem', 'seems', 'try', 'tried', 'use', 'used', 'guess', 'mean', 'start', 'started', 'stop', 'happen', 'happened',
  // recall phrasing: "do you remember what I said about …" asks, it does not tell
  'remember', 'remembered', 'recall', 'mention', 'mentioned', 'forget', 'forgot',
  // time words: when, not what
  'now', 'today', 'yesterday', 'tomorrow', 'tonight', 'recently', 'lately', 'soon', 'later', 'ago', 'last', 'next', 'past', 'previous',
  'day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'time', 'times', 'moment',
  // fillers
  'thing', 'things', 'stuff', 'something', 'anything', 'everything', 'nothing', 'someone', 'anyone', 'everyone', 'somebody', 'anybody', 'way', 'kind', 'sort',
  'good', 'great', 'nice', 'bad', 'fine', 'cool', 'awesome', 'new', 'one', 'first', 'back', 'sure', 'right',
  // the key's own reading words (describe.ts): a kind of memory, not its content
  'event',
  // Korean: pronouns, fillers and time words
  '나', '너', '저', '우리', '그냥', '진짜', '정말', '너무', '좀', '그리고', '그래서', '근데', '오늘', '어제', '내일', '요즘', '기억', '기억해', '기억나',
];
