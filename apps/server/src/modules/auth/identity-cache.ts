/**
 * Identities this process has checked (session cookie → user, trader token → account),
 * kept so that a request of a known session skips the two look-ups. An entry is dropped
 * when its session or token expires, when the session is logged out in this process (at
 * once: `forgetSession`), and after `ttlMs` in any case — the bound on how long a logout on
 * another API node may take to reach this one (with several nodes, publishing revocations
 * on the broker would make that immediate too). Sessions and tokens change no other way:
 * there is no password change or token rotation, and users are never deleted.
 */
export class IdentityCache<T extends { sessionId: number }> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  /** Sessions logged out here: a look-up that raced with the logout is not kept. */
  private readonly revoked = new Set<number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The value under `key` while it lives at `nowMs`. */
  get(key: string, nowMs: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (nowMs >= entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` until `expiresAtMs` (its own expiry) or the TTL, whichever comes first. */
  set(key: string, value: T, nowMs: number, expiresAtMs: number): void {
    if (this.revoked.has(value.sessionId)) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: Math.min(expiresAtMs, nowMs + this.ttlMs) });
  }

  /** Drops every entry of the session (its logout). */
  forgetSession(sessionId: number): void {
    if (this.revoked.size >= this.maxEntries) this.revoked.clear();
    this.revoked.add(sessionId);
    for (const [key, entry] of this.entries) {
      if (entry.value.sessionId === sessionId) this.entries.delete(key);
    }
  }
}
