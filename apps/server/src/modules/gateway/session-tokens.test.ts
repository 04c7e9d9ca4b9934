import { describe, expect, it } from 'vitest';
import { verifyLiveToken } from './jwt.ts';
import { LIVE_TOKEN_TTL_SECONDS, mintSessionTokens } from './session-tokens.ts';

const SECRET = 'session-tokens-secret';
const NOW_MS = 1_700_000_000_000;
const NOW_S = NOW_MS / 1000;

describe('mintSessionTokens', () => {
  it('names the session in both tokens and lasts 2 minutes', () => {
    const tokens = mintSessionTokens(
      SECRET,
      { userId: 7, sessionId: 42, expiresAt: NOW_S + 3600 },
      'charts:7',
      NOW_MS,
    );
    expect(LIVE_TOKEN_TTL_SECONDS).toBe(120);
    expect(tokens.expiresAt).toBe(NOW_S + 120);
    expect(verifyLiveToken(tokens.connectToken, SECRET, NOW_S)).toEqual({
      ok: true,
      claims: { sub: '7', exp: NOW_S + 120, sid: '42' },
    });
    expect(verifyLiveToken(tokens.subscriptionToken, SECRET, NOW_S)).toEqual({
      ok: true,
      claims: { sub: '7', exp: NOW_S + 120, channel: 'charts:7', sid: '42' },
    });
  });

  it('never outlives the session', () => {
    const tokens = mintSessionTokens(
      SECRET,
      { userId: 7, sessionId: 42, expiresAt: NOW_S + 30 },
      'account:u',
      NOW_MS,
    );
    expect(tokens.expiresAt).toBe(NOW_S + 30);
    expect(verifyLiveToken(tokens.connectToken, SECRET, NOW_S + 30)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });
});
