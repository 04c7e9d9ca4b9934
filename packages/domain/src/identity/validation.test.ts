import { describe, expect, it } from 'vitest';
import { validateLoginForm, validateProfileForm, EMAIL_PATTERN } from './validation.ts';

describe('validateLoginForm', () => {
  it('checks the email first, then its format, then the password', () => {
    expect(validateLoginForm('', '')).toBe('Please enter your email');
    expect(validateLoginForm('   ', 'x')).toBe('Please enter your email');
    expect(validateLoginForm('trader', '')).toBe('Please enter a valid email format');
    expect(validateLoginForm('a@b.c', '')).toBe('Please enter your password');
    expect(validateLoginForm('a@b.c', 'secret')).toBeNull();
  });

  it('accepts text @ text . text without spaces only', () => {
    for (const ok of ['a@b.c', 'first.last@example.co.uk', 'x+y@d.io']) {
      expect(EMAIL_PATTERN.test(ok)).toBe(true);
    }
    for (const bad of ['a@b', '@b.c', 'a b@c.d', 'a@b .c', 'ab.c', 'a@@b.c']) {
      expect(EMAIL_PATTERN.test(bad)).toBe(false);
    }
  });
});

describe('validateProfileForm', () => {
  it('requires a nickname and a valid email when one is given; phone is free', () => {
    expect(validateProfileForm({ nick_name: '', email: 'bad', phone: '' })).toEqual({
      nick_name: 'Please enter a nickname',
      email: 'Please enter a valid email format',
    });
    expect(validateProfileForm({ nick_name: 'Ann', email: '', phone: 'anything' })).toEqual({});
    expect(validateProfileForm({ nick_name: 'Ann', email: 'ann@x.io', phone: '' })).toEqual({});
  });
});
