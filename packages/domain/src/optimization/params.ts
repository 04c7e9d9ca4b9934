/*
 * A strategy's tunable parameters (docs/architecture.md "Optimisation rules (domain)"): the
 * module-level `PARAMS = {"n1": 10, "mode": "fast"}` literal, read from the code without
 * running it, rewritten in place ("Use these parameters"), and the Python statement that
 * gives a trial its values. Only a literal dict of names to numbers or strings is accepted.
 */

/** Kind of a declared parameter: a Python int, a float, or a string. */
export type ParamKind = 'int' | 'float' | 'string';

/** A value a parameter takes (an int or float parameter's value is a finite number). */
export type ParamValue = number | string;

/** One entry of `PARAMS`, in the order written. */
export type StrategyParam = { name: string; default: ParamValue; kind: ParamKind };

/** Values of a trial by parameter name. */
export type ParamValues = Readonly<Record<string, ParamValue>>;

export type ParamsParseResult =
  { ok: true; params: StrategyParam[] } | { ok: false; error: string; line: number };

/** Most parameters one strategy may declare. */
export const MAX_STRATEGY_PARAMS = 32;
/** Longest string value of a parameter, in characters. */
export const MAX_PARAM_STRING_LENGTH = 200;

/** A parameter name: a Python identifier (ASCII), not a keyword of the constraint grammar. */
export const PARAM_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const RESERVED_NAMES = new Set(['and', 'or', 'not', 'True', 'False', 'None', 'in', 'is']);

const EXAMPLE = 'PARAMS = {"n1": 10, "mode": "fast"}';

type Token = {
  type: 'name' | 'number' | 'string' | 'op' | 'newline';
  text: string;
  start: number;
  end: number;
  line: number;
  /** Column of the token's first character (0 = the line's start). */
  col: number;
};

class ParamsSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '==',
  '!=',
  '<=',
  '>=',
  '->',
  ':=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
  '**',
  '//',
  '<<',
  '>>',
];
const STRING_START = /([rRuUbBfF]{0,2})('''|"""|'|")/y;
const NUMBER =
  /0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?/y;
const NAME = /[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*/y;

function matchAt(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  return match === null ? null : match[0];
}

/**
 * Python's tokens, as far as finding the module-level PARAMS needs: names, numbers,
 * strings (any prefix, triple quotes), operators, and the end of each logical line
 * (newlines inside brackets or after a backslash do not end it). Comments are skipped.
 */
function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let depth = 0;
  const push = (type: Token['type'], start: number, end: number, startLine: number, col: number) =>
    tokens.push({ type, text: code.slice(start, end), start, end, line: startLine, col });
  while (i < code.length) {
    const ch = code[i] as string;
    if (ch === '\n') {
      if (depth === 0) push('newline', i, i + 1, line, i - lineStart);
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\f' || ch === '\r') {
      i++;
      continue;
    }
    if (ch === '#') {
      while (i < code.length && code[i] !== '\n') i++;
      continue;
    }
    if (ch === '\\' && (code[i + 1] === '\n' || (code[i + 1] === '\r' && code[i + 2] === '\n'))) {
      i += code[i + 1] === '\n' ? 2 : 3;
      line++;
      lineStart = i;
      continue;
    }
    const start = i;
    const startLine = line;
    const col = i - lineStart;
    const stringStart = matchAt(STRING_START, code, i);
    if (stringStart !== null) {
      const quote = stringStart.replace(/^[rRuUbBfF]*/, '');
      i += stringStart.length;
      let closed = false;
      while (i < code.length) {
        const c = code[i] as string;
        if (c === '\\') {
          if (code[i + 1] === '\n') {
            line++;
            lineStart = i + 2;
          }
          i += 2;
          continue;
        }
        if (code.startsWith(quote, i)) {
          i += quote.length;
          closed = true;
          break;
        }
        if (c === '\n') {
          if (quote.length === 1) break;
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      if (!closed)
        throw new ParamsSyntaxError(`A string is not closed (line ${startLine})`, startLine);
      push('string', start, i, startLine, col);
      continue;
    }
    const number = /[0-9.]/.test(ch) ? matchAt(NUMBER, code, i) : null;
    if (number !== null) {
      i += number.length;
      push('number', start, i, startLine, col);
      continue;
    }
    const name = matchAt(NAME, code, i);
    if (name !== null) {
      i += name.length;
      push('name', start, i, startLine, col);
      continue;
    }
    const op = OPERATORS.find((candidate) => code.startsWith(candidate, i)) ?? ch;
    if ('([{'.includes(op)) depth++;
    if (')]}'.includes(op)) depth = Math.max(0, depth - 1);
    i += op.length;
    push('op', start, i, startLine, col);
  }
  return tokens;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  r: '\r',
  t: '\t',
  a: '\u0007',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** The value of a Python string literal token (no bytes, no f-strings). */
function decodeString(token: Token): string {
  const prefix = (/^[rRuUbBfF]*/.exec(token.text) as RegExpExecArray)[0].toLowerCase();
  if (prefix.includes('b')) throw new ParamsSyntaxError(`bytes are not allowed`, token.line);
  if (prefix.includes('f')) throw new ParamsSyntaxError(`f-strings are not allowed`, token.line);
  const body = token.text.slice(prefix.length);
  const quote = body.startsWith('"""') || body.startsWith("'''") ? 3 : 1;
  const inner = body.slice(quote, body.length - quote);
  if (prefix.includes('r')) return inner;
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i] as string;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = inner[i + 1] ?? '';
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i++;
    } else if (next === '\n') {
      i++;
    } else if (/[0-7]/.test(next)) {
      const digits = (/^[0-7]{1,3}/.exec(inner.slice(i + 1)) as RegExpExecArray)[0];
      out += String.fromCodePoint(parseInt(digits, 8));
      i += digits.length;
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const width = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const hex = inner.slice(i + 2, i + 2 + width);
      const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === width ? parseInt(hex, 16) : NaN;
      if (!(code <= 0x10ffff)) {
        throw new ParamsSyntaxError(`a string has a bad \\${next} escape`, token.line);
      }
      out += String.fromCodePoint(code);
      i += 1 + width;
    } else if (next === 'N') {
      throw new ParamsSyntaxError('\\N{...} escapes are not supported', token.line);
    } else {
      out += ch;
    }
  }
  return out;
}

/** The value and kind of a Python number literal token (ints and floats only). */
function decodeNumber(token: Token, negative: boolean): { value: number; kind: 'int' | 'float' } {
  const text = token.text;
  if (/[jJ]$/.test(text))
    throw new ParamsSyntaxError('complex numbers are not allowed', token.line);
  // Python allows one underscore between digits only.
  if (/__|_$|_\.|\._|[eE][+-]?_|_[eE]/.test(text)) {
    throw new ParamsSyntaxError(`${text} is not a valid Python number`, token.line);
  }
  const plain = text.replaceAll('_', '');
  let value: number;
  let kind: 'int' | 'float';
  if (/^0[xXoObB]/.test(plain)) {
    const radix = /^0[xX]/.test(plain) ? 16 : /^0[oO]/.test(plain) ? 8 : 2;
    value = parseInt(plain.slice(2), radix);
    kind = 'int';
  } else if (/[.eE]/.test(plain)) {
    value = Number(plain);
    kind = 'float';
  } else {
    if (/^0+[1-9]/.test(plain)) {
      throw new ParamsSyntaxError(`${text} is not a valid Python number`, token.line);
    }
    value = Number(plain);
    kind = 'int';
  }
  if (negative) value = -value;
  if (kind === 'int' && !Number.isSafeInteger(value)) {
    throw new ParamsSyntaxError(
      `${negative ? '-' : ''}${text} is too large for a parameter (at most ${Number.MAX_SAFE_INTEGER} in size)`,
      token.line,
    );
  }
  if (!Number.isFinite(value)) {
    throw new ParamsSyntaxError(`${text} is too large for a parameter`, token.line);
  }
  return { value: Object.is(value, -0) && kind === 'int' ? 0 : value, kind };
}

/** A parsed entry with the source span of its value (for rewriting it in place). */
type ParsedParam = StrategyParam & { start: number; end: number };

function isStatementStart(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index] as Token;
  if (token.col !== 0) return false;
  return index === 0 || (tokens[index - 1] as Token).type === 'newline';
}

function parseParamsTokens(code: string): ParsedParam[] {
  const tokens = tokenize(code);
  const starts = tokens
    .map((token, index) => ({ token, index }))
    .filter(
      ({ token, index }) =>
        token.type === 'name' && token.text === 'PARAMS' && isStatementStart(tokens, index),
    )
    .filter(({ index }) => {
      const next = tokens[index + 1];
      if (next?.type === 'op' && next.text === ':') {
        throw new ParamsSyntaxError(
          `Write PARAMS without a type annotation, like ${EXAMPLE} (line ${next.line})`,
          next.line,
        );
      }
      return next?.type === 'op' && next.text === '=';
    });
  if (starts.length === 0) return [];
  if (starts.length > 1) {
    const lines = starts.map(({ token }) => token.line).join(' and ');
    throw new ParamsSyntaxError(
      `PARAMS is assigned more than once at module level (lines ${lines}); keep one literal dict`,
      (starts[1] as { token: Token }).token.line,
    );
  }
  const first = (starts[0] as { token: Token; index: number }).index;
  let at = first + 2;
  const assignLine = (tokens[first] as Token).line;
  const notLiteral = (line: number) =>
    new ParamsSyntaxError(
      `PARAMS must be a literal dict of names to numbers or strings, like ${EXAMPLE} (line ${line})`,
      line,
    );
  const open = tokens[at];
  if (open === undefined || open.type !== 'op' || open.text !== '{') throw notLiteral(assignLine);
  at++;
  const params: ParsedParam[] = [];
  for (;;) {
    const token = tokens[at];
    if (token === undefined) throw notLiteral(assignLine);
    if (token.type === 'op' && token.text === '}') {
      at++;
      break;
    }
    if (token.type !== 'string') {
      throw new ParamsSyntaxError(
        `PARAMS keys must be parameter names in quotes, like ${EXAMPLE} (line ${token.line})`,
        token.line,
      );
    }
    const name = decodeString(token);
    if (!PARAM_NAME_PATTERN.test(name) || RESERVED_NAMES.has(name)) {
      throw new ParamsSyntaxError(
        `PARAMS key ${JSON.stringify(name)} must be a name of letters, digits and _ that does not start with a digit (line ${token.line})`,
        token.line,
      );
    }
    if (params.some((param) => param.name === name)) {
      throw new ParamsSyntaxError(
        `PARAMS declares "${name}" twice (line ${token.line})`,
        token.line,
      );
    }
    const colon = tokens[at + 1];
    if (colon?.type !== 'op' || colon.text !== ':') throw notLiteral(token.line);
    at += 2;
    let valueToken = tokens[at];
    const valueStart = valueToken?.start ?? code.length;
    let negative = false;
    if (valueToken?.type === 'op' && (valueToken.text === '-' || valueToken.text === '+')) {
      negative = valueToken.text === '-';
      at++;
      valueToken = tokens[at];
    }
    const badValue = (line: number, shown: string) =>
      new ParamsSyntaxError(
        `PARAMS value of "${name}" must be a number or a string, not ${shown} (line ${line})`,
        line,
      );
    if (valueToken === undefined) throw notLiteral(token.line);
    if (valueToken.type === 'number') {
      const { value, kind } = decodeNumber(valueToken, negative);
      params.push({ name, default: value, kind, start: valueStart, end: valueToken.end });
    } else if (valueToken.type === 'string' && !negative && valueStart === valueToken.start) {
      const value = decodeString(valueToken);
      if (value.length > MAX_PARAM_STRING_LENGTH) {
        throw new ParamsSyntaxError(
          `PARAMS value of "${name}" is longer than ${MAX_PARAM_STRING_LENGTH} characters (line ${valueToken.line})`,
          valueToken.line,
        );
      }
      params.push({ name, default: value, kind: 'string', start: valueStart, end: valueToken.end });
    } else {
      throw badValue(valueToken.line, valueToken.type === 'op' ? 'an expression' : valueToken.text);
    }
    at++;
    const after = tokens[at];
    if (after?.type === 'op' && after.text === ',') {
      at++;
    } else if (!(after?.type === 'op' && after.text === '}')) {
      throw badValue(after?.line ?? valueToken.line, 'an expression');
    }
    if (params.length > MAX_STRATEGY_PARAMS) {
      throw new ParamsSyntaxError(
        `PARAMS declares more than ${MAX_STRATEGY_PARAMS} parameters`,
        assignLine,
      );
    }
  }
  const end = tokens[at];
  if (end !== undefined && end.type !== 'newline' && !(end.type === 'op' && end.text === ';')) {
    throw notLiteral(end.line);
  }
  return params;
}

/**
 * The parameters a strategy declares in its module-level `PARAMS = {...}` literal, in the
 * order written, read without running the code. No PARAMS → an empty list. Anything else
 * than one literal dict of names to ints, floats or strings (e.g. `dict(n=1)`, `True`,
 * an expression, a repeated key) → an error naming the problem and its 1-based line.
 */
export function parseStrategyParams(code: string): ParamsParseResult {
  try {
    return {
      ok: true,
      params: parseParamsTokens(code).map(({ name, default: value, kind }) => ({
        name,
        default: value,
        kind,
      })),
    };
  } catch (error) {
    if (error instanceof ParamsSyntaxError) {
      return { ok: false, error: error.message, line: error.line };
    }
    throw error;
  }
}

/**
 * Why `value` cannot be the value of `param`, or null when it can: an int parameter takes
 * a safe integer, a float any finite number, a string parameter a string of at most
 * MAX_PARAM_STRING_LENGTH characters.
 */
export function paramValueProblem(param: StrategyParam, value: unknown): string | null {
  if (param.kind === 'string') {
    if (typeof value !== 'string') return `${param.name} must be a string`;
    if (value.length > MAX_PARAM_STRING_LENGTH) {
      return `${param.name} must be at most ${MAX_PARAM_STRING_LENGTH} characters`;
    }
    return null;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return `${param.name} must be a finite number`;
  }
  if (param.kind === 'int' && !Number.isSafeInteger(value)) {
    return `${param.name} must be a whole number`;
  }
  return null;
}

/**
 * A Python string literal holding `text`: double quotes, backslash, quote and every
 * character outside printable ASCII escaped (\\xNN, \\uNNNN, \\UNNNNNNNN), so the literal is
 * one safe line whatever the text holds (lone surrogates included).
 */
export function pythonStringLiteral(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let code = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (code === 0x5c) out += '\\\\';
    else if (code === 0x22) out += '\\"';
    else if (code >= 0x20 && code < 0x7f) out += String.fromCharCode(code);
    else if (code <= 0xff) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/**
 * `value` as a Python literal of `kind`: an int as digits, a float always with a `.` or an
 * exponent (20 → `20.0`), a string escaped (pythonStringLiteral). Throws on a non-finite
 * number or a value of the wrong kind (check with paramValueProblem first).
 */
export function pythonParamLiteral(kind: ParamKind, value: ParamValue): string {
  if (kind === 'string') {
    if (typeof value !== 'string') throw new TypeError('a string parameter needs a string');
    return pythonStringLiteral(value);
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TypeError('a number parameter needs a finite number');
  }
  if (kind === 'int') {
    if (!Number.isSafeInteger(value)) throw new TypeError('an int parameter needs an integer');
    return String(value);
  }
  if (Object.is(value, -0)) return '-0.0';
  const text = String(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

function checkValues(params: readonly StrategyParam[], values: ParamValues): string | null {
  for (const name of Object.keys(values)) {
    const param = params.find((candidate) => candidate.name === name);
    if (param === undefined) return `${name} is not a parameter of the strategy`;
    const problem = paramValueProblem(param, values[name]);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * The strategy code with the values of its `PARAMS` literal replaced by `values` (names not
 * given keep their value), everything else of the file (comments, layout, line numbers)
 * kept as it is. For "Use these parameters". A code without PARAMS, a name it does not
 * declare or a value of the wrong kind → an error.
 */
export function withParamValues(
  code: string,
  values: ParamValues,
): { ok: true; code: string } | { ok: false; error: string } {
  let parsed: ParsedParam[];
  try {
    parsed = parseParamsTokens(code);
  } catch (error) {
    if (error instanceof ParamsSyntaxError) return { ok: false, error: error.message };
    throw error;
  }
  if (parsed.length === 0) return { ok: false, error: 'The strategy declares no PARAMS' };
  const problem = checkValues(parsed, values);
  if (problem !== null) return { ok: false, error: problem };
  let out = code;
  for (const param of [...parsed].reverse()) {
    const value = values[param.name];
    if (value === undefined) continue;
    out = out.slice(0, param.start) + pythonParamLiteral(param.kind, value) + out.slice(param.end);
  }
  return { ok: true, code: out };
}

/**
 * The one Python line that gives a trial its values: `PARAMS.update({"n1": 10, "n2": 20.5})`
 * (declared order, every name of `values`; ints as ints, floats as floats, strings
 * escaped). The sandbox runs it in the strategy module's namespace after loading the code
 * and before each `main(data_array)` call, so `main` (and anything holding the same dict)
 * reads the trial's values; a warm interpreter reuses the loaded module between trials.
 * Throws on a name not declared or a value of the wrong kind (validate the space first).
 */
export function paramsUpdateStatement(
  params: readonly StrategyParam[],
  values: ParamValues,
): string {
  const problem = checkValues(params, values);
  if (problem !== null) throw new TypeError(problem);
  const entries = params
    .filter((param) => values[param.name] !== undefined)
    .map(
      (param) =>
        `${pythonStringLiteral(param.name)}: ${pythonParamLiteral(param.kind, values[param.name] as ParamValue)}`,
    );
  return `PARAMS.update({${entries.join(', ')}})`;
}
