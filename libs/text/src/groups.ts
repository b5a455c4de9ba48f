/**
 * Groups of people a hateful generalisation targets (turn-pipeline §6.2
 * "harassment/hate", §10 item 1). One list for both ends: the router reads it in
 * user messages, the orchestrator's safety gate in replies. normNoPunct form.
 */
export const PROTECTED_GROUPS: readonly string[] = Object.freeze([
  'immigrants',
  'foreigners',
  'refugees',
  'muslims',
  'jews',
  'christians',
  'gays',
  'gay people',
  'lesbians',
  'trans people',
  'women',
  'men',
  'black people',
  'white people',
  'asians',
  'mexicans',
  'disabled people',
  '외국인',
  '이민자',
  '난민',
  '흑인',
  '동성애자',
  '여자들',
  '남자들',
]);
