// What a user message states about the user, as memory keys and values (turn-pipeline §12.3.1):
// pure rules shared by memory (which stores them) and uncertainty (which checks a message
// against what is stored, before the reply).
export * from './config.js';
export * from './types.js';
export * from './keys.js';
export { extractHeuristic, extractOffline, extractRulesOnly, keysForTarget } from './extract/heuristic.js';
export { statedDate, statedTime } from './extract/stated-time.js';
