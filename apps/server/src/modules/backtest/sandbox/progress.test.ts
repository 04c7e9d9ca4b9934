import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_PATH } from './command.ts';
import { withoutProgress } from './pool.ts';

describe('a run’s progress through its rows', () => {
  it('is placed by the row (or its date) the strategy’s innermost frame holding one holds', () => {
    // the harness's Progress asked from inside a "strategy" frame at known rows
    const script = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(path.dirname(HARNESS_PATH))})`,
      'import harness',
      'rows = [["2020-01-01 %02d:%02d:00" % (i // 60, i % 60), "GEN", "1m", 1.0, 1.0, 1.0, 1.0, i] for i in range(1440)]',
      'progress = harness.Progress(rows, "s.py")',
      'source = """',
      'def by_row(data_array, k, ask):',
      '    row = data_array[k]',
      '    return ask()',
      'def by_date(data_array, k, ask):',
      '    date = data_array[k][0]',
      '    return ask()',
      'def average(ask):',
      '    length = 10',
      '    return ask()',
      'def by_caller(data_array, k, ask):',
      '    date = data_array[k][0]',
      '    return average(ask)',
      'def neither(data_array, k, ask):',
      '    i = k',
      '    return ask()',
      '"""',
      'space = {}',
      'exec(compile(source, "s.py", "exec"), space)',
      'ask = progress.position',
      'print(json.dumps([space["by_row"](rows, 720, ask), space["by_date"](rows, 1439, ask), space["neither"](rows, 5, ask), ask(), space["by_caller"](rows, 360, ask)]))',
    ].join('\n');
    const out = execFileSync('python3', ['-I', '-B', '-c', script]).toString();
    expect(JSON.parse(out)).toEqual([720, 1439, null, null, 360]);
  });

  it('comes off the log: its lines go to onProgress, every other line is logged as it is', () => {
    const logged: string[] = [];
    const told: number[] = [];
    const onLine = withoutProgress(
      (line) => logged.push(line),
      (percent) => told.push(percent),
    );
    for (const line of [
      'printed',
      '\u001eprogress 45',
      '\u001eprogress 100',
      '\u001eprogress x',
      'progress 5',
    ]) {
      onLine(line);
    }
    expect(told).toEqual([45, 100]);
    expect(logged).toEqual(['printed', '\u001eprogress x', 'progress 5']);
  });
});
