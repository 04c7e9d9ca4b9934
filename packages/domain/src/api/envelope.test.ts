import { describe, expect, it } from 'vitest';
import { loginRequestSchema } from '../identity/schemas.ts';
import { describeIssues, fail, ok } from './envelope.ts';

describe('envelopes', () => {
  it('builds success and failure shapes', () => {
    expect(ok({ a: 1 })).toEqual({ code: 0, msg: 'success', data: { a: 1 } });
    expect(fail(50002, 'Token验证失败')).toEqual({ code: 50002, msg: 'Token验证失败', data: null });
  });

  it('names the fields at fault', () => {
    const parsed = loginRequestSchema.safeParse({
      channel: 1,
      login_type: 2,
      device: 1,
      password: 5,
    });
    expect(parsed.success).toBe(false);
    if (!parsed.success) {
      const text = describeIssues(parsed.error.issues);
      expect(text).toContain('user_name');
      expect(text).toContain('password');
    }
  });
});
