import fc from 'fast-check';
import type { z } from 'zod';

/*
 * fast-check arbitraries generated from the domain's zod schemas: each schema gives values
 * of its own shape (so a request gets past the parts it gets right and reaches deeper
 * rules), mixed with hostile values anywhere in the tree (NUL bytes, lone surrogates,
 * bidirectional overrides, huge and non-decimal numbers, wrong types).
 */

/** Strings that broke or could break a server: storage, JSON, number parsing, paths. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'BTCUSDT\u0000',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '\u202eevil',
  'a\u200bb',
  '\ufeffname',
  '\u0007bell',
  '\r\n',
  '0b1',
  '0x1',
  '+1',
  '1e3',
  '1e20',
  '-1',
  '0',
  '18446744073709551616',
  '9223372036854775808',
  '-9223372036854775809',
  'NaN',
  'Infinity',
  'null',
  '../etc/passwd',
  '%00',
  "'; drop table users; --",
  '{"$gt":""}',
  '𝄞é',
  '\\',
  'x'.repeat(300),
] as const;

export const HOSTILE_NUMBERS = [
  0,
  -1,
  1.5,
  -0.000001,
  1e20,
  2 ** 53,
  2 ** 63,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
] as const;

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

export const hostileNumber = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

/** Any JSON value that is probably of the wrong kind. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  {
    weight: 1,
    arbitrary: fc.constantFrom(null, true, false, [], {}, [1, '\u0000'], { a: '\ud800' }),
  },
);

/** Field names whose realistic values come from the test (own ids, known symbols…). */
export type Overrides = Record<string, fc.Arbitrary<unknown>>;

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, unknown>;
  valueType?: z.ZodType;
  format?: string;
  getter?: () => z.ZodType;
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function plainString(format: string | undefined): fc.Arbitrary<string> {
  if (format === 'uuid' || format === 'guid') return fc.uuid();
  if (format === 'email') return fc.emailAddress();
  if (format === 'url') return fc.webUrl();
  return fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('1', 'BTCUSDT', 'a'));
}

/**
 * Values shaped by `schema`, where any part may be hostile instead (about one in five) and
 * object fields named in `overrides` mostly take the test's realistic values.
 */
export function arbitraryOf(
  schema: z.ZodType,
  overrides: Overrides = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const shaped = shapedOf(schema, overrides, depth);
  return fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: hostileValue });
}

function shapedOf(schema: z.ZodType, overrides: Overrides, depth: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (s: z.ZodType) => arbitraryOf(s, overrides, depth + 1);
  switch (def.type) {
    case 'string':
      return plainString(def.format);
    case 'number':
      return fc.oneof(
        fc.integer({ min: -5, max: 1000 }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
      );
    case 'int':
    case 'bigint':
      return fc.integer({ min: -5, max: 1000 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return fc.oneof(
        { weight: 4, arbitrary: inner(def.innerType as z.ZodType) },
        { weight: 1, arbitrary: fc.constant(def.type === 'nullable' ? null : undefined) },
      );
    case 'pipe':
      return shapedOf(def.in as z.ZodType, overrides, depth);
    case 'lazy':
      return depth > 3
        ? hostileValue
        : shapedOf((def.getter as () => z.ZodType)(), overrides, depth);
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => shapedOf(option, overrides, depth)));
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(inner(def.element as z.ZodType), { maxLength: 3 });
    case 'record':
      return depth > 3
        ? fc.constant({})
        : fc.dictionary(hostileString, inner(def.valueType as z.ZodType), { maxKeys: 3 });
    case 'object': {
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const override = overrides[key];
        fields[key] = override
          ? fc.oneof({ weight: 5, arbitrary: override }, { weight: 1, arbitrary: inner(field) })
          : inner(field);
      }
      return fc
        .record(fields, { requiredKeys: [] })
        .map((value) =>
          Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)),
        );
    }
    default:
      // unknown, any, transform, custom…: nothing to shape; anything goes.
      return fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileValue);
  }
}
