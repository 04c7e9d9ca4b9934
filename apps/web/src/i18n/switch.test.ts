import { afterEach, describe, expect, it } from 'vitest';
import { messages as firstScreen } from './firstScreen';
import { formatDateTime, formatNumber } from './intl';
import { en } from './locales/en';
import { zh } from './locales/zh';
import { messages } from './messages';
import { switchTo } from './switch';

type Tree = Record<string, unknown>;

/** Every leaf of a texts tree by its path ('trading.buy'), functions and strings alike. */
function leaves(tree: unknown, path = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof tree === 'object' && tree !== null && !Array.isArray(tree)) {
    for (const [key, value] of Object.entries(tree)) {
      for (const [p, v] of leaves(value, path ? `${path}.${key}` : key)) out.set(p, v);
    }
  } else {
    out.set(path, tree);
  }
  return out;
}

/** Sample calls of a text function: every text it can give for typical arguments. */
function outputsOf(path: string, fn: (...args: unknown[]) => string): string[] {
  if (path === 'notifications.body') {
    const kinds = Object.keys(messages.notifications.kinds);
    return kinds.flatMap((kind) => [
      fn(kind, () => 'x'),
      fn(kind, (n: string) => (n === 'side' ? 'buy' : '')),
    ]);
  }
  const samples: unknown[][] = [
    Array.from({ length: fn.length }, () => 1),
    Array.from({ length: fn.length }, () => 2),
    Array.from({ length: fn.length }, () => 'buy'),
    Array.from({ length: fn.length }, () => 'sell'),
    Array.from({ length: fn.length }, () => true),
    Array.from({ length: fn.length }, () => false),
    Array.from({ length: fn.length }, () => null),
  ];
  return samples.flatMap((args) => {
    try {
      return [fn(...args)];
    } catch {
      return [];
    }
  });
}

const CHINESE = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

// Taken before any switch: the spec's texts.
const defaults = leaves(messages);

/** A language's texts: each section its own, a section or text it leaves out the default's. */
function composed(language: Tree): Map<string, unknown> {
  const tree: Tree = {};
  for (const [name, section] of Object.entries(messages)) {
    tree[name] = { ...section, ...((language[name] as Tree | undefined) ?? {}) };
  }
  return leaves(tree);
}

afterEach(async () => {
  await switchTo('default');
});

describe('language resources', () => {
  it('Chinese has every text of the default, with the same parameters', () => {
    const chinese = composed(zh as unknown as Tree);
    expect([...chinese.keys()].sort()).toEqual([...defaults.keys()].sort());
    for (const [path, value] of defaults) {
      const translated = chinese.get(path);
      expect(typeof translated, path).toBe(typeof value);
      if (typeof value === 'function') {
        expect((translated as (...a: unknown[]) => string).length, path).toBe(value.length);
      }
    }
    // a section of its own for every section
    expect(Object.keys(zh).sort()).toEqual(Object.keys(messages).sort());
  });

  it('Chinese translates every English text but names, codes and units', () => {
    const chinese = composed(zh as unknown as Tree);
    const same = [...defaults]
      .filter(
        ([, value]) => typeof value === 'string' && /[a-z]{3}/.test(value) && !CHINESE.test(value),
      )
      .filter(([path, value]) => chinese.get(path) === value)
      .map(([path]) => path);
    // Product and standard names a Chinese trader reads as they are.
    expect(same.sort()).toEqual(
      ['assistant.settings.apiKey', 'chart.attribution', 'language.en'].sort(),
    );
  });

  it('English has every text of the default and no Chinese', () => {
    const english = composed(en as unknown as Tree);
    expect([...english.keys()].sort()).toEqual([...defaults.keys()].sort());
    const chinese: string[] = [];
    for (const [path, value] of english) {
      if (path === 'language.zh') continue; // the option keeps its own name
      const texts =
        typeof value === 'function'
          ? outputsOf(path, value as (...a: unknown[]) => string)
          : typeof value === 'string'
            ? [value]
            : [];
      if (texts.some((text) => CHINESE.test(text))) chinese.push(path);
    }
    expect(chinese).toEqual([]);
    // every function of English takes the default's parameters
    for (const [path, value] of english) {
      if (typeof value === 'function') {
        expect(value.length, path).toBe((defaults.get(path) as () => string).length);
      }
    }
  });
});

describe('switching the language', () => {
  it('puts every text in the chosen language, the first screen included, and back', async () => {
    const aiTasks = messages.aiTasks; // a module's alias of a section stays current
    const legend = messages.chart.legend; // and of a group in a section
    expect(messages.bottomPanel.emptyPositions).toBe('暂无持仓');

    await switchTo('en');
    expect(messages.bottomPanel.emptyPositions).toBe('No positions');
    expect(firstScreen.bottomPanel.emptyPositions).toBe('No positions');
    expect(messages.trading.noCurrentTrader).toBe('No current trading account found');
    expect(messages.trading.buy).toBe('Buy');
    expect(messages.perfTest.heading).toBe('Live data performance test');

    await switchTo('zh-CN');
    expect(messages.trading.buy).toBe('买入');
    expect(messages.trading.place('sell')).toBe('下卖单');
    expect(firstScreen.workspace.trading).toBe('交易');
    expect(aiTasks.listTitle).toBe('AI 策略任务列表');
    expect(legend.open).toBe('开');
    expect(messages.perfTest.heading).toBe('实时数据性能测试');
    expect(messages.strategy.versionChars(12345, 3)).toBe('12,345 个字符 · 3 行');

    await switchTo('default');
    expect(legend.open).toBe('O');
    // the spec's texts again, every one the very same
    for (const [path, value] of leaves(messages)) expect(value, path).toBe(defaults.get(path));
  });

  it('names account types and periods, and translates the known server texts', async () => {
    expect(messages.profile.typeName(2)).toBe('Professional');
    expect(messages.chart.periodLabel('day', '1D')).toBe('1D');
    expect(messages.http.serverText('Strategy not found: Trend')).toBe('Strategy not found: Trend');

    await switchTo('zh-CN');
    expect(messages.profile.typeName(1)).toBe('标准');
    expect(messages.profile.typeName(9)).toBe('类型 9');
    expect(messages.chart.periodLabel('day', '1D')).toBe('日');
    expect(messages.chart.periodTitle('4h', '4 hours')).toBe('4 小时');
    expect(messages.http.serverText('Default strategy cannot be modified')).toBe(
      '默认策略不可修改',
    );
    expect(messages.http.serverText('Strategy not found: Trend')).toBe('未找到策略：Trend');
    expect(
      messages.http.serverText(
        'You already have 2 live runs running; stop one first (at most 2 at once)',
      ),
    ).toBe('已有 2 个实时运行，请先停止一个（同时最多 2 个）');
    // the status word inside a refusal is in Chinese too
    expect(messages.http.serverText('Pending order P7 is already filled')).toBe('挂单 P7 已成交');
    expect(messages.http.serverText('Pending order P7 is already canceled')).toBe('挂单 P7 已撤销');
    expect(messages.http.serverText('The market for EURUSD is closed')).toBe('EURUSD 当前休市');
    // a text the client does not know is shown as sent
    expect(messages.http.serverText('Something new')).toBe('Something new');

    await switchTo('en');
    expect(messages.http.serverText('Token验证失败')).toBe('Token verification failed');
    expect(messages.http.serverText('Drawing not found')).toBe('Drawing not found');
  });

  it('formats numbers and dates in the language’s locale', async () => {
    const day = Date.UTC(2026, 0, 15);
    const long = { dateStyle: 'long', timeZone: 'UTC' } as const;
    expect(formatDateTime(day, long)).toBe('January 15, 2026');
    expect(formatNumber(1234.5)).toBe('1,234.5');
    await switchTo('zh-CN');
    expect(formatDateTime(day, long)).toBe('2026年1月15日');
    expect(formatNumber(1234.5)).toBe('1,234.5');
  });
});
