export { extractHeuristic, extractOffline, keysForTarget } from './heuristic.js';
