/**
 * A JSON document written as it is read: objects whose values, and arrays whose
 * items, arrive later (a page of database rows at a time), so a large document
 * never sits in memory whole.
 */

/** An array whose items arrive in pages; an item may itself be streamed. */
export class StreamedArray {
  constructor(readonly pages: AsyncIterable<readonly StreamedJson[]>) {}
}

/** An object written key by key, in order; a value may be streamed. */
export class StreamedObject {
  constructor(readonly entries: Iterable<readonly [string, StreamedJson]>) {}
}

/** A value of a streamed document: plain JSON, or a streamed object or array. */
export type StreamedJson = unknown;

/**
 * How much text is gathered at most before it is handed on: one write per page
 * of messages rather than one per message. Not a spec number.
 */
export const JSON_CHUNK_CHARS = 64 * 1024;

/** Hand on what is gathered: a source is about to be waited for. */
const FLUSH = Symbol('flush');

/**
 * The text of `value` as JSON, in chunks: what is gathered is handed on before
 * each wait for a page, and whenever it reaches `chunkChars` characters. An
 * error of a source ends the iteration with that error, so the text written so
 * far is never valid JSON.
 */
export async function* jsonChunks(value: StreamedJson, chunkChars = JSON_CHUNK_CHARS): AsyncGenerator<string> {
  let buffer = '';
  for await (const piece of pieces(value)) {
    if (piece !== FLUSH) buffer += piece;
    if (buffer && (piece === FLUSH || buffer.length >= chunkChars)) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

async function* pieces(value: StreamedJson): AsyncGenerator<string | typeof FLUSH> {
  if (value instanceof StreamedObject) {
    let first = true;
    yield '{';
    for (const [key, v] of value.entries) {
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* pieces(v);
    }
    yield '}';
    return;
  }
  if (value instanceof StreamedArray) {
    let first = true;
    yield '[';
    // `for await` asks for the next page only after each pass: flush before it waits.
    yield FLUSH;
    for await (const page of value.pages) {
      for (const item of page) {
        const separator = first ? '' : ',';
        first = false;
        if (item instanceof StreamedObject || item instanceof StreamedArray) {
          yield separator;
          yield* pieces(item);
        } else {
          yield separator + plain(item);
        }
      }
      yield FLUSH;
    }
    yield ']';
    return;
  }
  yield plain(value);
}

/** A plain value as JSON; one JSON cannot represent (undefined, a function) is null, as inside an array. */
function plain(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
