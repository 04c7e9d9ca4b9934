import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The lifecycles of AI tasks, live runs and optimisations are the domain's transition tables:
 * a status is written only as what a transition gives, in SQL too. A status spelled out in a
 * statement (`status = 'queued'`, `status in ('PENDING', …)`, `then 'PROCESSING'`) would be a
 * move the tables never see, so the modules' SQL takes every status as a parameter. An AI
 * task's fields are written from objects too: no `status: 'FAILED'` there either.
 */
const MODULES = ['ai', 'live-runs', 'optimization'];
const here = path.dirname(fileURLToPath(import.meta.url));
const STATUS_LITERAL = /(?<![.\w])status\s*(=|<>|!=|in\s*\()\s*'|\bthen\s+'[A-Za-z_]+'/g;
const STATUS_FIELD = /(?<![.\w])status\s*:\s*'[A-Za-z_]+'/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** The lines of a module's sources that match `pattern`, as `file:line: text`. */
function linesMatching(name: string, pattern: RegExp): string[] {
  return sources(path.join(here, name)).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        line.match(pattern) ? [`${path.relative(here, file)}:${index + 1}: ${line.trim()}`] : [],
      ),
  );
}

describe('status writes go through the transition tables', () => {
  it.each(MODULES)('modules/%s spells no status inside its SQL', (name) => {
    expect(linesMatching(name, STATUS_LITERAL)).toEqual([]);
  });

  it('modules/ai sets no task status as a literal field', () => {
    expect(linesMatching('ai', STATUS_FIELD)).toEqual([]);
  });

  it('the field check sees a literal status write', () => {
    expect(".set({ status: 'FAILED', updatedAt: at })".match(STATUS_FIELD)).not.toBeNull();
    expect("status: aiTaskTransition(from, 'Failed')".match(STATUS_FIELD)).toBeNull();
  });
});
