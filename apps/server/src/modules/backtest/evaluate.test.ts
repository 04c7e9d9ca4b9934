import { describe, expect, it } from 'vitest';
import { lineStrategyMs } from './evaluate.ts';

const line = (text: string) => new TextEncoder().encode(text);

describe('lineStrategyMs', () => {
  it('reads the time inside main() at the end of a result line, as the harness writes it', () => {
    const records = Array.from({ length: 50 }, () => ({ open_date: '2020-01-02', lots: 1 }));
    const text = JSON.stringify({ ok: true, count: 50, records, elapsed_ms: 12.345 }).replace(
      / /g,
      '',
    );
    expect(lineStrategyMs(line(text))).toBe(12.345);
    expect(lineStrategyMs(line('{"ok":true,"count":0,"records":[],"elapsed_ms":7}\n'))).toBe(7);
  });

  it('is null for a failure, a line without the time at its end, or a number that is not one', () => {
    expect(lineStrategyMs(line('{"ok":false,"kind":"exception","error":"boom"}'))).toBeNull();
    expect(lineStrategyMs(line('{"elapsed_ms":5,"ok":true,"count":0,"records":[]}'))).toBeNull();
    expect(lineStrategyMs(line('{"ok":true,"records":[],"elapsed_ms":"5"}'))).toBeNull();
    expect(lineStrategyMs(line('{"ok":true,"records":[],"elapsed_ms":-1}'))).toBeNull();
    expect(lineStrategyMs(line(''))).toBeNull();
  });
});
