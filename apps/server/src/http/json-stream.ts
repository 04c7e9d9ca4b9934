import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';

/*
 * Large answers written as a stream (docs/architecture.md, "Large bodies off the event loop"): the
 * same bytes as JSON.stringify, made a piece at a time with a turn of the event loop between
 * pieces, so that an answer of many megabytes never holds the loop while it is serialised.
 * An array of more than ARRAY_PIECE entries is written ARRAY_PIECE entries at a time; a
 * `JsonPieces` value (e.g. a kept run's deals, read from the database a piece at a time) is
 * written as one array from its pieces.
 */

/** Entries of a large array serialised at once. */
export const ARRAY_PIECE = 500;
/** Text gathered before it is handed to the socket. */
const FLUSH_CHARS = 64 * 1024;

/** An array given as consecutive pieces (each non-empty), written as one JSON array. */
export class JsonPieces {
  constructor(readonly pieces: () => AsyncIterable<readonly unknown[]>) {}
}

type WithToJson = { toJSON(key: string): unknown };
const hasToJson = (value: unknown): value is WithToJson =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Partial<WithToJson>).toJSON === 'function';

/** Leaves out what JSON.stringify leaves out of an object. */
const omitted = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** The slices of JSON.stringify(value), with turns of the event loop inside large arrays. */
async function* parts(value: unknown): AsyncGenerator<string> {
  if (value instanceof JsonPieces) {
    let first = true;
    yield '[';
    for await (const piece of value.pieces()) {
      if (piece.length === 0) continue;
      const text = JSON.stringify(piece);
      yield (first ? '' : ',') + text.slice(1, -1);
      first = false;
      await nextTurn();
    }
    yield ']';
    return;
  }
  if (Array.isArray(value)) {
    if (value.length <= ARRAY_PIECE) {
      yield JSON.stringify(value);
      return;
    }
    yield '[';
    for (let i = 0; i < value.length; i += ARRAY_PIECE) {
      const text = JSON.stringify(value.slice(i, i + ARRAY_PIECE));
      yield (i === 0 ? '' : ',') + text.slice(1, -1);
      await nextTurn();
    }
    yield ']';
    return;
  }
  if (typeof value === 'object' && value !== null) {
    yield '{';
    let first = true;
    for (const key of Object.keys(value)) {
      let item = (value as Record<string, unknown>)[key];
      if (hasToJson(item)) item = item.toJSON(key);
      if (omitted(item)) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* parts(item);
    }
    yield '}';
    return;
  }
  yield JSON.stringify(value) ?? 'null';
}

/** JSON.stringify(value) as a sequence of texts of about FLUSH_CHARS each. */
export async function* jsonText(value: unknown): AsyncGenerator<string> {
  let out = '';
  for await (const part of parts(hasToJson(value) ? value.toJSON('') : value)) {
    out += part;
    if (out.length >= FLUSH_CHARS) {
      yield out;
      out = '';
    }
  }
  if (out !== '') yield out;
}

/** Bytes of JSON.stringify(value) in UTF-8, counted a piece at a time. */
export async function jsonByteLength(value: unknown): Promise<number> {
  let bytes = 0;
  for await (const text of jsonText(value)) bytes += Buffer.byteLength(text);
  return bytes;
}

/** Sends `value` as a JSON answer written as a stream (same bytes as `reply.send(value)`). */
export function sendJsonStream(reply: FastifyReply, value: unknown): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .send(Readable.from(jsonText(value), { objectMode: false }));
}
