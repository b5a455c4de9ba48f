/** Nest injection tokens of the ingress HTTP surface (explicit: no decorator metadata under tsx). */
export const INGRESS_APP = Symbol.for('hearth.ingress.app');
export const INGRESS_AUTH = Symbol.for('hearth.ingress.auth');
