// The users the fuzzer acts as and the ids it has learned, and how a generated
// request names them before it is sent.

export type IdKind = 'conversations' | 'messageIds' | 'replyIds' | 'memoryIds' | 'notificationIds';

export interface FuzzUser {
  /** `pool-3`, `victim-1`, `admin`…, for reports. */
  label: string;
  id: string;
  token: string;
  /** Own ids, learned during setup and from answers. */
  conversations: string[];
  /** The user's own chat message ids. */
  messageIds: string[];
  /** The assistant's reply ids. */
  replyIds: string[];
  memoryIds: string[];
  notificationIds: string[];
}

export interface World {
  /** Users the fuzz acts as. */
  pool: FuzzUser[];
  /** Users whose DELETE /v1/me the fuzz may send (erasure is theirs alone). */
  erasable: FuzzUser[];
  /** Users who never act during the fuzz: their ids are what BOLA attempts aim at. */
  victims: FuzzUser[];
  /** A user with role admin. */
  admin: FuzzUser;
}

/** How a generated request names a value that exists only at run time (a user's id, token or conversation). */
export type Ref = (w: World, actor: FuzzUser) => string;

export function isRef(v: unknown): v is Ref {
  return typeof v === 'function';
}

export function newUser(label: string, id: string, token: string): FuzzUser {
  return { label, id, token, conversations: [], messageIds: [], replyIds: [], memoryIds: [], notificationIds: [] };
}

/** Element `i` of a list, cycling; undefined when it is empty. */
export function nth<T>(list: readonly T[], i: number): T | undefined {
  return list.length === 0 ? undefined : list[i % list.length];
}

/** Replaces every Ref inside a generated value by what it names now. */
export function resolve(value: unknown, w: World, actor: FuzzUser): unknown {
  if (isRef(value)) return value(w, actor);
  if (Array.isArray(value)) return value.map((v) => resolve(v, w, actor));
  if (value !== null && typeof value === 'object') {
    const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = resolve(v, w, actor);
    return out;
  }
  return value;
}
