/*
 * The texts an AI strategy task sends to the model, and reading code out of its answers.
 * Pure: the web's Strategy Generation Prompt modal previews exactly what the server sends.
 */

/** The strategy contract and the rules every generated strategy must follow (spec section 5). */
export const STRATEGY_PROMPT_RULES = `Write a trading strategy in Python for our backtester.

The contract:
- The strategy defines main(data_array). It is called once with every bar of the chart.
- data_array is a list of bars, oldest first. Each bar is a list [date, code, period, open, high, low, close, volume]:
  date is the bar's start as a text 'YYYY-MM-DD HH:MM:SS', code is the instrument, period the bar period, then open, high, low, close and volume as numbers.
- main returns a list of trade records (dicts). Every record keeps the fields open_date, close_date, open_price, close_price, lots, status:
  open_date and close_date are the date texts of bars of data_array; open_price and close_price are positive prices;
  lots is positive for a buy (long) and negative for a sell (short), never zero;
  status 'NOT' means the trade is still open (close_date and close_price may then be None), 'YES' means it is closed.

The rules:
- A decision at bar i may use only bars 0 … i (never a later bar: no look-ahead). Trades are judged on data the strategy never saw.
- The strategy must make trades on the data.
- Use only the Python standard library (no numpy or pandas; no files, no network).
- Do not hide errors with try/except.
- Answer with the complete code in one \`\`\`python code block.`;

/** Spec section 9: the longest description of an AI task (characters). */
export const MAX_AI_TASK_PROMPT_CHARS = 1000;

/**
 * The prompt an AI task sends first (step `generate_prompt`): the contract and rules, then
 * the user's description, trimmed. The web previews this text live while the user types.
 */
export function buildStrategyPrompt(description: string): string {
  return `${STRATEGY_PROMPT_RULES}\n\nThe strategy to write:\n${description.trim()}`;
}

function fenced(language: string, text: string): string {
  // a fence longer than any backtick run inside, so the code cannot close it early
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/**
 * The prompt after a failed check (step `fix_prompt`): the error text and the code that
 * caused it. Carries no backtest figures: the fix loop sees in-sample errors only.
 */
export function buildFixPrompt(error: string, code: string): string {
  return [
    'The strategy you wrote failed our check:',
    fenced('', error.trim()),
    'The code:',
    fenced('python', code),
    'Fix the cause (do not hide the error) and answer with the complete corrected code in one ```python code block, following the contract and rules above.',
  ].join('\n\n');
}

/**
 * The prompt that starts over from the description (step `regenerate_prompt`), when the
 * model's answer held no code at all or the model could not answer.
 */
export function buildRegeneratePrompt(description: string, reason: string): string {
  return `${buildStrategyPrompt(description)}\n\nYour previous answer could not be used: ${reason.trim()}\nAnswer with the complete code in one \`\`\`python code block.`;
}

const FENCE = /(`{3,}|~{3,})[ \t]*([\w+.-]*)[^\n]*\n([\s\S]*?)\n[ \t]*\1[ \t]*(?=\n|$)/g;

/**
 * The strategy code of a model's answer: the fenced block that defines `main` (a `python`
 * block first, the longest when several), else the only fenced block, else null. A leading
 * `<think>…</think>` block is ignored. Never guesses code from unfenced text.
 */
export function extractPythonCode(answer: string): string | null {
  const text = answer.replace(/^\s*<think>[\s\S]*?<\/think>/, '');
  const blocks: { language: string; code: string }[] = [];
  for (const match of text.matchAll(FENCE)) {
    const code = (match[3] ?? '').replace(/\s+$/, '');
    if (code.trim() !== '') blocks.push({ language: (match[2] ?? '').toLowerCase(), code });
  }
  const definesMain = blocks.filter((b) => /^\s*def\s+main\s*\(/m.test(b.code));
  const python = definesMain.filter((b) => b.language === 'python' || b.language === 'py');
  const pick = (list: typeof blocks) =>
    list.reduce((best, b) => (b.code.length > best.code.length ? b : best)).code;
  if (python.length > 0) return pick(python);
  if (definesMain.length > 0) return pick(definesMain);
  if (blocks.length === 1) return blocks[0]?.code ?? null;
  return null;
}

/** Lines of `code_preview`. */
export const AI_CODE_PREVIEW_LINES = 20;

/**
 * The first AI_CODE_PREVIEW_LINES lines of a task's code, with a last line `# … N more lines`
 * when it is longer; null for no code.
 */
export function taskCodePreview(code: string | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  const lines = code.split('\n');
  if (lines.length <= AI_CODE_PREVIEW_LINES) return code;
  const more = lines.length - AI_CODE_PREVIEW_LINES;
  return `${lines.slice(0, AI_CODE_PREVIEW_LINES).join('\n')}\n# … ${more} more line${more === 1 ? '' : 's'}`;
}
