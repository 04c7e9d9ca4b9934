import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseOhlcvCsv, parseCsvTime } from './csv.ts';

const shipped = (name: string) =>
  readFileSync(new URL(`../../../../apps/server/data/market/${name}`, import.meta.url), 'utf8');

describe('parseOhlcvCsv', () => {
  it('reads the shipped files completely', () => {
    const goog = parseOhlcvCsv(shipped('GOOG.csv'));
    const eur = parseOhlcvCsv(shipped('EURUSD.csv'));
    const btc = parseOhlcvCsv(shipped('BTCUSD.csv'));
    expect(goog.ok && goog.bars.length).toBe(2148);
    expect(eur.ok && eur.bars.length).toBe(5000);
    expect(btc.ok && btc.bars.length).toBe(156);
    if (goog.ok) {
      expect(goog.bars[0]).toEqual({
        time: Date.UTC(2004, 7, 19),
        open: 100,
        high: 104.06,
        low: 95.96,
        close: 100.34,
        volume: 22351900,
      });
    }
    if (eur.ok) expect(eur.bars[0]?.time).toBe(Date.UTC(2017, 3, 19, 9));
  });

  it('reads common exports: Yahoo, TradingView, MetaTrader, semicolons, descending', () => {
    const yahoo = parseOhlcvCsv(
      'Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,10,11,9,10.5,10.4,100\n2024-01-03,10.5,12,10,11,11,200\n',
    );
    expect(yahoo.ok && yahoo.bars.map((b) => b.close)).toEqual([10.5, 11]);
    const tv = parseOhlcvCsv(
      'time,open,high,low,close,Volume\n1704153600,1,2,0.5,1.5,10\n1704240000,1.5,2,1,1.8,12',
    );
    expect(tv.ok && tv.bars[0]?.time).toBe(Date.UTC(2024, 0, 2));
    const mt = parseOhlcvCsv(
      '2024.01.02,09:00,1.1,1.2,1.0,1.15,300\n2024.01.02,10:00,1.15,1.3,1.1,1.2,200',
    );
    expect(mt.ok && mt.bars[1]?.time).toBe(Date.UTC(2024, 0, 2, 10));
    const semi = parseOhlcvCsv(
      'Date;Open;High;Low;Close\n2024-01-03;2;3;1;2.5\n2024-01-02;1;2;0.5;1.5',
    );
    expect(semi.ok && semi.bars.map((b) => b.time)).toEqual([
      Date.UTC(2024, 0, 2),
      Date.UTC(2024, 0, 3),
    ]);
  });

  it('refuses a bad file naming the row and column at fault', () => {
    const bad = (text: string) => {
      const result = parseOhlcvCsv(text);
      return result.ok ? null : result.error;
    };
    const header = ',Open,High,Low,Close,Volume\n';
    expect(bad(`${header}2024-01-02,1,2,0.5,1.5,10\n2024-01-03,1,x,0.5,1.5,10`)).toEqual({
      row: 3,
      column: 3,
      message: "Not a number: 'x'",
    });
    expect(bad(`${header}2024-01-02,1,2,0.5,1.5,10\n2024-13-03,1,2,0.5,1.5,10`)).toMatchObject({
      row: 3,
      column: 1,
    });
    expect(bad(`${header}2024-01-02,1,0.9,0.5,1.5,10`)).toMatchObject({ row: 2, column: 3 });
    expect(bad(`${header}2024-01-02,1,2,1.2,1.5,10`)).toMatchObject({ row: 2, column: 4 });
    expect(bad(`${header}2024-01-02,1,2,0.5,1.5,-1`)).toMatchObject({ row: 2, column: 6 });
    expect(bad(`${header}2024-01-02,1,2,0.5,1.5,10\n2024-01-02,1,2,0.5,1.5,10`)).toEqual({
      row: 3,
      column: 1,
      message: 'Duplicate time',
    });
    expect(bad(`${header}2024-01-02,1,2,0.5,1.5`)).toMatchObject({ row: 2, column: 6 });
    expect(bad('Date,Open,Foo,Low,Close\n')).toMatchObject({ row: 1, column: 3 });
    expect(bad('')).toMatchObject({ row: 1, column: 1 });
  });

  it('parses times with zones and rejects impossible dates', () => {
    expect(parseCsvTime('2024-01-02T10:00:00+02:00')).toBe(Date.UTC(2024, 0, 2, 8));
    expect(parseCsvTime('2021-02-30')).toBeNull();
    expect(parseCsvTime('1704153600000')).toBe(1704153600000);
  });
});
