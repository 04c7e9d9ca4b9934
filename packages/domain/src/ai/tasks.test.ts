import { describe, expect, it } from 'vitest';
import {
  AI_CODE_PREVIEW_LINES,
  aiConversationQuerySchema,
  aiStrategyAutoName,
  aiTaskListQuerySchema,
  aiTaskStatusView,
  buildFixPrompt,
  buildRegeneratePrompt,
  buildStrategyPrompt,
  chooseLookaheadCuts,
  compareEntries,
  createAiTaskRequestSchema,
  extractPythonCode,
  inSampleEnd,
  isAiTaskActive,
  lookaheadVerdict,
  taskCodePreview,
  tradesFrom,
  type ValidTrade,
} from '../index.ts';

const trade = (openIndex: number, lots = 1, closeIndex: number | null = null): ValidTrade => ({
  openIndex,
  closeIndex,
  openTime: openIndex * 86_400_000,
  closeTime: closeIndex === null ? null : closeIndex * 86_400_000,
  openPrice: 100,
  closePrice: closeIndex === null ? null : 101,
  lots,
  status: closeIndex === null ? 'NOT' : 'YES',
});

describe('the strategy prompt', () => {
  it('embeds the contract of spec section 5 and the description', () => {
    const prompt = buildStrategyPrompt('  Buy the dip  ');
    for (const part of [
      'main(data_array)',
      '[date, code, period, open, high, low, close, volume]',
      'open_date, close_date, open_price, close_price, lots, status',
      "status 'NOT' means the trade is still open",
      "'YES' means it is closed",
    ]) {
      expect(prompt).toContain(part);
    }
    expect(prompt.endsWith('The strategy to write:\nBuy the dip')).toBe(true);
  });

  it('fix and regenerate prompts carry the error and code, or start over', () => {
    const fix = buildFixPrompt('NameError: x', 'def main(d):\n    return x');
    expect(fix).toContain('NameError: x');
    expect(fix).toContain('```python\ndef main(d):\n    return x\n```');
    const again = buildRegeneratePrompt('Buy', 'no code');
    expect(again.startsWith(buildStrategyPrompt('Buy'))).toBe(true);
    expect(again).toContain('no code');
  });
});

describe('extractPythonCode', () => {
  it('takes the python block that defines main', () => {
    const answer =
      'Setup:\n```bash\npip install nothing\n```\nCode:\n```python\nimport math\n\ndef main(data_array):\n    return []\n```\nDone.';
    expect(extractPythonCode(answer)).toBe('import math\n\ndef main(data_array):\n    return []');
  });

  it('accepts an unlabelled block with main, ignores <think>, refuses prose', () => {
    expect(
      extractPythonCode(
        '<think>```python\nx=1\n```</think>\n```\ndef main(d):\n    return []\n```',
      ),
    ).toBe('def main(d):\n    return []');
    expect(extractPythonCode('I would use moving averages.')).toBeNull();
    expect(extractPythonCode('```python\nprint(1)\n```\n```python\nprint(2)\n```')).toBeNull();
  });

  it('previews the first lines of the code', () => {
    const code = Array.from({ length: 25 }, (_, i) => `line ${i}`).join('\n');
    const preview = taskCodePreview(code) ?? '';
    expect(preview.split('\n')).toHaveLength(AI_CODE_PREVIEW_LINES + 1);
    expect(preview.endsWith('# … 5 more lines')).toBe(true);
    expect(taskCodePreview('short')).toBe('short');
    expect(taskCodePreview(null)).toBeNull();
  });
});

describe('the 70/30 split', () => {
  it('keeps a bar on each side', () => {
    expect(inSampleEnd(300)).toBe(210);
    expect(inSampleEnd(2)).toBe(1);
    expect(inSampleEnd(1)).toBe(1);
    expect(inSampleEnd(0)).toBe(0);
  });

  it('moves the trades opened out of sample onto its bars', () => {
    const shifted = tradesFrom([trade(5, 1, 8), trade(10, -2, 12), trade(11, 1)], 10);
    expect(shifted.map((t) => [t.openIndex, t.closeIndex, t.lots])).toEqual([
      [0, 2, -2],
      [1, null, 1],
    ]);
  });
});

describe('the look-ahead check', () => {
  it('cuts right after entries, spread, keeping enough bars', () => {
    expect(chooseLookaheadCuts([1, 30, 50, 99], 100)).toEqual([31, 51]);
    const many = chooseLookaheadCuts(
      Array.from({ length: 50 }, (_, i) => 20 + i),
      100,
      4,
    );
    expect(many).toHaveLength(4);
    expect(many.at(-1)).toBe(69 + 1);
    expect([...many].sort((a, b) => a - b)).toEqual(many);
  });

  it('compares entries only, before the cut', () => {
    const full = [trade(3, 1, 9), trade(10, -1, 20), trade(25, 1)];
    // the trade opened at 10 is still open at the cut: not an alarm
    expect(compareEntries(full, [trade(3, 1, 9), trade(10, -1)], 11)).toEqual({
      missing: [],
      extra: [],
    });
    expect(compareEntries(full, [trade(3, 1, 9)], 11)).toEqual({
      missing: [{ index: 10, side: -1 }],
      extra: [],
    });
    expect(compareEntries(full, [trade(3, 1, 9), trade(10, 1)], 11)).toEqual({
      missing: [{ index: 10, side: -1 }],
      extra: [{ index: 10, side: 1 }],
    });
  });

  it('passes when nothing changed and says what changed otherwise', () => {
    const times = Array.from({ length: 30 }, (_, i) => Date.UTC(2024, 0, 1 + i));
    const clean = lookaheadVerdict(
      [{ keep: 11, ok: true, missing: [], extra: [], entries: 2 }],
      times,
    );
    expect(clean.passed).toBe(true);
    expect(clean.cuts).toEqual([
      { bars: 11, until: '2024-01-11 00:00:00', entries: 2, changed: 0, error: null },
    ]);
    const peeking = lookaheadVerdict(
      [{ keep: 11, ok: true, missing: [{ index: 10, side: 1 }], extra: [], entries: 2 }],
      times,
    );
    expect(peeking.passed).toBe(false);
    expect(peeking.detail).toContain('a buy at 2024-01-11 00:00:00');
    expect(lookaheadVerdict([], times).passed).toBe(true);
    const failing = lookaheadVerdict(
      [{ keep: 11, ok: false, error: 'IndexError', entries: 1 }],
      times,
    );
    expect(failing.passed).toBe(false);
    expect(failing.cuts[0]?.error).toBe('IndexError');
  });
});

describe('task schemas', () => {
  const valid = {
    prompt: 'Buy low',
    provider: 'qwen',
    model: 'qwen-plus',
    base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    symbol_id: 'BTCUSDT',
    period: 'day',
  };

  it('accepts the form and states the spec’s messages', () => {
    expect(createAiTaskRequestSchema.parse({ ...valid, api_key: '' }).prompt).toBe('Buy low');
    const messages = (body: Record<string, unknown>) => {
      const parsed = createAiTaskRequestSchema.safeParse(body);
      return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
    };
    expect(messages({ ...valid, prompt: '' })).toEqual(['Please enter strategy description']);
    expect(messages({ ...valid, prompt: 'x'.repeat(1001) })).toEqual([
      'Strategy description must be at most 1000 characters',
    ]);
    expect(messages({ ...valid, prompt: 'x'.repeat(1000) })).toEqual([]);
    expect(messages({ ...valid, provider: '' })).toEqual(['Please select an AI provider']);
    expect(messages({ ...valid, model: undefined })).toEqual(['Please select an AI model']);
    expect(messages({ ...valid, base_url: ' ' })).toEqual(['Please enter API Base URL']);
  });

  it('reads list and conversation queries', () => {
    expect(aiTaskListQuerySchema.parse({})).toEqual({ skip: 0, limit: 10, preview_code: false });
    expect(aiTaskListQuerySchema.parse({ skip: '5', limit: '20', preview_code: 'true' })).toEqual({
      skip: 5,
      limit: 20,
      preview_code: true,
    });
    expect(aiTaskListQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
    expect(aiConversationQuerySchema.parse({})).toEqual({ retry_number: null });
    expect(aiConversationQuerySchema.parse({ retry_number: '2' })).toEqual({ retry_number: 2 });
  });

  it('maps statuses as section 4 says', () => {
    expect(aiTaskStatusView('PENDING')).toBe('waiting');
    expect(aiTaskStatusView('PROCESSING')).toBe('processing');
    expect(aiTaskStatusView('FINISHED')).toBe('completed');
    expect(aiTaskStatusView('ERROR')).toBe('failed');
    expect(aiTaskStatusView('RUNNING')).toBe('processing');
    expect(aiTaskStatusView('WAITING')).toBe('waiting');
    expect(aiTaskStatusView('odd')).toBe('unknown');
    expect(isAiTaskActive('PENDING')).toBe(true);
    expect(isAiTaskActive('COMPLETED')).toBe(false);
  });

  it('names auto-created strategies AI_Strategy_ + local time', () => {
    expect(aiStrategyAutoName('2026/01/05 09:30:00')).toBe('AI_Strategy_2026_01_05_09_30_00');
  });
});
