import type { ParamValues, StrategyParam } from './params.ts';

/*
 * Constraint expressions over a strategy's parameters, e.g. "n1 < n2 and n2 <= 4 * n1"
 * (docs/architecture.md "Optimisation rules (domain)"). A tokenizer and a recursive-descent
 * parser build an AST; it is checked against the declared parameters and evaluated over a
 * trial's values. Nothing is ever evaluated as code. Semantics follow Python: `and`/`or`
 * short-circuit and return an operand, `not` gives a bool, `a < b < c` means
 * `a < b and b < c`, `%` takes the divisor's sign, `//` floors, True == 1.
 *
 * Grammar (lowest precedence first):
 *   or      := and ("or" and)*
 *   and     := not ("and" not)*
 *   not     := "not" not | compare
 *   compare := sum (("<" | "<=" | ">" | ">=" | "==" | "!=") sum)*
 *   sum     := term (("+" | "-") term)*
 *   term    := unary (("*" | "/" | "//" | "%") unary)*
 *   unary   := ("-" | "+") unary | atom
 *   atom    := number | string | name | "True" | "False" | "(" or ")"
 */

/** Longest constraint, in characters. */
export const MAX_CONSTRAINT_LENGTH = 500;
/** Deepest nesting of a constraint (parentheses, unary and `not` chains). */
export const MAX_CONSTRAINT_DEPTH = 32;

export type CompareOp = '<' | '<=' | '>' | '>=' | '==' | '!=';
export type ArithmeticOp = '+' | '-' | '*' | '/' | '//' | '%';

/** A constraint's syntax tree. `pos` is the 1-based character position in the text. */
export type ConstraintNode =
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'bool'; value: boolean; pos: number }
  | { kind: 'name'; name: string; pos: number }
  | { kind: 'negate' | 'plus' | 'not'; operand: ConstraintNode; pos: number }
  | {
      kind: 'arithmetic';
      op: ArithmeticOp;
      left: ConstraintNode;
      right: ConstraintNode;
      pos: number;
    }
  | { kind: 'and' | 'or'; left: ConstraintNode; right: ConstraintNode; pos: number }
  | {
      kind: 'compare';
      first: ConstraintNode;
      rest: { op: CompareOp; operand: ConstraintNode; pos: number }[];
      pos: number;
    };

/** A parsed constraint, checked against the parameters it was parsed for. */
export type Constraint = { text: string; ast: ConstraintNode; names: string[] };

export type ConstraintParseResult =
  { ok: true; constraint: Constraint } | { ok: false; error: string };

type Token =
  | { type: 'number'; value: number; pos: number; text: string }
  | { type: 'string'; value: string; pos: number; text: string }
  | { type: 'name'; value: string; pos: number; text: string }
  | { type: 'op'; value: string; pos: number; text: string }
  | { type: 'end'; value: ''; pos: number; text: string };

class ConstraintError extends Error {}

const OPS = ['<=', '>=', '==', '!=', '//', '<', '>', '+', '-', '*', '/', '%', '(', ')'];
const HINTS: Readonly<Record<string, string>> = {
  '**': '** is not supported',
  '&&': 'use "and" instead of &&',
  '||': 'use "or" instead of ||',
  '!': 'use "not" instead of !',
  '=': 'use == to compare',
};
const STRING_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
};

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    const pos = i + 1;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (number !== null) {
      if (/^[A-Za-z_]/.test(text.slice(i + number[0].length))) {
        throw new ConstraintError(`${number[0]} is not a number (position ${pos})`);
      }
      tokens.push({ type: 'number', value: Number(number[0]), pos, text: number[0] });
      i += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (name !== null) {
      tokens.push({ type: 'name', value: name[0], pos, text: name[0] });
      i += name[0].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let value = '';
      let j = i + 1;
      for (; j < text.length && text[j] !== ch; j++) {
        if (text[j] === '\\') {
          const escaped = STRING_ESCAPES[text[j + 1] ?? ''];
          if (escaped === undefined) {
            throw new ConstraintError(`unknown escape in a string (position ${j + 1})`);
          }
          value += escaped;
          j++;
        } else {
          value += text[j];
        }
      }
      if (j >= text.length) throw new ConstraintError(`a string is not closed (position ${pos})`);
      tokens.push({ type: 'string', value, pos, text: text.slice(i, j + 1) });
      i = j + 1;
      continue;
    }
    const hint = Object.keys(HINTS).find(
      (key) =>
        text.startsWith(key, i) && !OPS.some((op) => op.length > 1 && text.startsWith(op, i)),
    );
    if (hint !== undefined) throw new ConstraintError(`${HINTS[hint]} (position ${pos})`);
    const op = OPS.find((candidate) => text.startsWith(candidate, i));
    if (op === undefined) {
      throw new ConstraintError(`unexpected character ${JSON.stringify(ch)} at position ${pos}`);
    }
    tokens.push({ type: 'op', value: op, pos, text: op });
    i += op.length;
  }
  tokens.push({ type: 'end', value: '', pos: text.length + 1, text: '' });
  return tokens;
}

const COMPARE_OPS = ['<', '<=', '>', '>=', '==', '!='];

class Parser {
  private at = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): ConstraintNode {
    const node = this.or();
    const next = this.peek();
    if (next.type !== 'end') throw this.unexpected(next);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.at] as Token;
  }

  private isWord(word: string): boolean {
    const token = this.peek();
    return token.type === 'name' && token.value === word;
  }

  private isOp(...ops: string[]): boolean {
    const token = this.peek();
    return token.type === 'op' && ops.includes(token.value);
  }

  private unexpected(token: Token): ConstraintError {
    if (token.type === 'end') {
      return new ConstraintError(`the expression ends too early (position ${token.pos})`);
    }
    return new ConstraintError(`unexpected ${token.text} at position ${token.pos}`);
  }

  private nest<T>(pos: number, parse: () => T): T {
    this.depth++;
    if (this.depth > MAX_CONSTRAINT_DEPTH) {
      throw new ConstraintError(
        `the expression is nested more than ${MAX_CONSTRAINT_DEPTH} deep (position ${pos})`,
      );
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private or(): ConstraintNode {
    let left = this.and();
    while (this.isWord('or')) {
      const pos = this.peek().pos;
      this.at++;
      left = { kind: 'or', left, right: this.and(), pos };
    }
    return left;
  }

  private and(): ConstraintNode {
    let left = this.not();
    while (this.isWord('and')) {
      const pos = this.peek().pos;
      this.at++;
      left = { kind: 'and', left, right: this.not(), pos };
    }
    return left;
  }

  private not(): ConstraintNode {
    if (this.isWord('not')) {
      const pos = this.peek().pos;
      this.at++;
      return this.nest(pos, () => ({ kind: 'not', operand: this.not(), pos }));
    }
    return this.compare();
  }

  private compare(): ConstraintNode {
    const first = this.sum();
    const rest: { op: CompareOp; operand: ConstraintNode; pos: number }[] = [];
    while (this.isOp(...COMPARE_OPS)) {
      const token = this.peek();
      this.at++;
      rest.push({ op: token.value as CompareOp, operand: this.sum(), pos: token.pos });
    }
    return rest.length === 0 ? first : { kind: 'compare', first, rest, pos: first.pos };
  }

  private sum(): ConstraintNode {
    let left = this.term();
    while (this.isOp('+', '-')) {
      const token = this.peek();
      this.at++;
      const op = token.value as ArithmeticOp;
      left = { kind: 'arithmetic', op, left, right: this.term(), pos: token.pos };
    }
    return left;
  }

  private term(): ConstraintNode {
    let left = this.unary();
    while (this.isOp('*', '/', '//', '%')) {
      const token = this.peek();
      this.at++;
      const op = token.value as ArithmeticOp;
      left = { kind: 'arithmetic', op, left, right: this.unary(), pos: token.pos };
    }
    return left;
  }

  private unary(): ConstraintNode {
    if (this.isOp('-', '+')) {
      const token = this.peek();
      this.at++;
      const kind = token.value === '-' ? 'negate' : 'plus';
      return this.nest(token.pos, () => ({ kind, operand: this.unary(), pos: token.pos }));
    }
    return this.atom();
  }

  private atom(): ConstraintNode {
    const token = this.peek();
    if (token.type === 'number') {
      this.at++;
      return { kind: 'number', value: token.value, pos: token.pos };
    }
    if (token.type === 'string') {
      this.at++;
      return { kind: 'string', value: token.value, pos: token.pos };
    }
    if (token.type === 'name') {
      if (['and', 'or', 'not'].includes(token.value)) throw this.unexpected(token);
      this.at++;
      if (token.value === 'True' || token.value === 'False') {
        return { kind: 'bool', value: token.value === 'True', pos: token.pos };
      }
      return { kind: 'name', name: token.value, pos: token.pos };
    }
    if (token.type === 'op' && token.value === '(') {
      this.at++;
      const inner = this.nest(token.pos, () => this.or());
      const close = this.peek();
      if (close.type !== 'op' || close.value !== ')') {
        throw close.type === 'end'
          ? new ConstraintError(`a ( at position ${token.pos} is not closed`)
          : this.unexpected(close);
      }
      this.at++;
      return inner;
    }
    throw this.unexpected(token);
  }
}

/** Static type of a subexpression; 'any' where `and`/`or` may give either operand. */
type StaticType = 'number' | 'string' | 'bool' | 'any';

const numeric = (type: StaticType) => type === 'number' || type === 'bool';

function typeOf(
  node: ConstraintNode,
  kinds: ReadonlyMap<string, StrategyParam['kind']>,
): StaticType {
  switch (node.kind) {
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'bool':
      return 'bool';
    case 'name':
      return kinds.get(node.name) === 'string' ? 'string' : 'number';
    case 'not':
      typeOf(node.operand, kinds);
      return 'bool';
    case 'negate':
    case 'plus': {
      const type = typeOf(node.operand, kinds);
      if (type === 'string') {
        throw new ConstraintError(
          `cannot use ${node.kind === 'negate' ? '-' : '+'} on text (position ${node.pos})`,
        );
      }
      return 'number';
    }
    case 'arithmetic': {
      const left = typeOf(node.left, kinds);
      const right = typeOf(node.right, kinds);
      if (left === 'any' || right === 'any') return 'any';
      if (node.op === '+' && left === 'string' && right === 'string') return 'string';
      if (!numeric(left) || !numeric(right)) {
        throw new ConstraintError(`cannot use ${node.op} on text (position ${node.pos})`);
      }
      return 'number';
    }
    case 'and':
    case 'or': {
      const left = typeOf(node.left, kinds);
      const right = typeOf(node.right, kinds);
      return left === right ? left : 'any';
    }
    case 'compare': {
      let left = typeOf(node.first, kinds);
      for (const { op, operand, pos } of node.rest) {
        const right = typeOf(operand, kinds);
        const ordering = op !== '==' && op !== '!=';
        const mixed =
          left !== 'any' && right !== 'any' && (left === 'string') !== (right === 'string');
        if (ordering && mixed) {
          throw new ConstraintError(
            `cannot compare text with a number using ${op} (position ${pos})`,
          );
        }
        left = right;
      }
      return 'bool';
    }
  }
}

function collectNames(node: ConstraintNode, into: { name: string; pos: number }[]): void {
  switch (node.kind) {
    case 'name':
      into.push({ name: node.name, pos: node.pos });
      return;
    case 'not':
    case 'negate':
    case 'plus':
      collectNames(node.operand, into);
      return;
    case 'arithmetic':
    case 'and':
    case 'or':
      collectNames(node.left, into);
      collectNames(node.right, into);
      return;
    case 'compare':
      collectNames(node.first, into);
      for (const { operand } of node.rest) collectNames(operand, into);
      return;
    default:
      return;
  }
}

/**
 * Parses a constraint and checks it against the strategy's parameters: only declared names,
 * no arithmetic on text, no ordering of text against numbers. Errors name the unknown name
 * or the 1-based position of the problem (e.g. "unexpected ) at position 9").
 */
export function parseConstraint(
  text: string,
  params: readonly StrategyParam[],
): ConstraintParseResult {
  if (text.length > MAX_CONSTRAINT_LENGTH) {
    return { ok: false, error: `must be at most ${MAX_CONSTRAINT_LENGTH} characters` };
  }
  if (text.trim() === '') return { ok: false, error: 'must be an expression over the parameters' };
  try {
    const ast = new Parser(tokenize(text)).parse();
    const used: { name: string; pos: number }[] = [];
    collectNames(ast, used);
    const kinds = new Map(params.map((param) => [param.name, param.kind]));
    const unknown = used.find(({ name }) => !kinds.has(name));
    if (unknown !== undefined) {
      const known = params.map((param) => param.name).join(', ') || 'none';
      return {
        ok: false,
        error: `unknown name ${unknown.name} at position ${unknown.pos} (the parameters are: ${known})`,
      };
    }
    typeOf(ast, kinds);
    return { ok: true, constraint: { text, ast, names: [...new Set(used.map((u) => u.name))] } };
  } catch (error) {
    if (error instanceof ConstraintError) return { ok: false, error: error.message };
    throw error;
  }
}

type Value = number | string | boolean;

class ZeroDivision extends Error {}

const truthy = (value: Value) =>
  typeof value === 'string' ? value.length > 0 : value !== 0 && value !== false;

function asNumber(value: Value, pos: number): number {
  if (typeof value === 'string')
    throw new ConstraintError(`cannot use text in arithmetic (position ${pos})`);
  return typeof value === 'boolean' ? Number(value) : value;
}

function compare(op: CompareOp, a: Value, b: Value, pos: number): boolean {
  if (op === '==' || op === '!=') {
    const equal =
      typeof a === 'string' || typeof b === 'string' ? a === b : Number(a) === Number(b);
    return op === '==' ? equal : !equal;
  }
  if ((typeof a === 'string') !== (typeof b === 'string')) {
    throw new ConstraintError(`cannot compare text with a number using ${op} (position ${pos})`);
  }
  const x = typeof a === 'string' ? a : Number(a);
  const y = typeof b === 'string' ? b : Number(b);
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

function evaluate(node: ConstraintNode, values: ParamValues): Value {
  switch (node.kind) {
    case 'number':
    case 'string':
    case 'bool':
      return node.value;
    case 'name': {
      const value = values[node.name];
      if (value === undefined) throw new ConstraintError(`${node.name} has no value`);
      return value;
    }
    case 'not':
      return !truthy(evaluate(node.operand, values));
    case 'negate':
      return -asNumber(evaluate(node.operand, values), node.pos);
    case 'plus':
      return asNumber(evaluate(node.operand, values), node.pos);
    case 'and': {
      const left = evaluate(node.left, values);
      return truthy(left) ? evaluate(node.right, values) : left;
    }
    case 'or': {
      const left = evaluate(node.left, values);
      return truthy(left) ? left : evaluate(node.right, values);
    }
    case 'compare': {
      let left = evaluate(node.first, values);
      for (const { op, operand, pos } of node.rest) {
        const right = evaluate(operand, values);
        if (!compare(op, left, right, pos)) return false;
        left = right;
      }
      return true;
    }
    case 'arithmetic': {
      const left = evaluate(node.left, values);
      const right = evaluate(node.right, values);
      if (node.op === '+' && typeof left === 'string' && typeof right === 'string') {
        return left + right;
      }
      const a = asNumber(left, node.pos);
      const b = asNumber(right, node.pos);
      switch (node.op) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '/':
          if (b === 0) throw new ZeroDivision();
          return a / b;
        case '//':
          if (b === 0) throw new ZeroDivision();
          return Math.floor(a / b);
        case '%': {
          if (b === 0) throw new ZeroDivision();
          const r = a % b;
          return r !== 0 && r < 0 !== b < 0 ? r + b : r;
        }
      }
    }
  }
}

/**
 * Whether a trial's values satisfy the constraint (Python truthiness of the result). A
 * division or modulo by zero makes the constraint false for that trial (Python would raise;
 * the trial is simply not run). Throws an Error for a type mix the static check could not
 * see (e.g. `(n1 or mode) < 3`), with the position.
 */
export function constraintHolds(constraint: Constraint, values: ParamValues): boolean {
  try {
    return truthy(evaluate(constraint.ast, values));
  } catch (error) {
    if (error instanceof ZeroDivision) return false;
    throw error;
  }
}
