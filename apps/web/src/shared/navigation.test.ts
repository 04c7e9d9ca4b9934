import { afterEach, describe, expect, it, vi } from 'vitest';

describe('navigateTo', () => {
  afterEach(() => vi.resetModules());

  it('keeps a route change asked for while the app starts for the router, instead of a page load', async () => {
    const { expectRouter, navigateTo, registerNavigate } = await import('./navigation');
    const before = window.location.href;
    expectRouter();
    navigateTo('/login', { replace: true });
    expect(window.location.href).toBe(before); // no page load (jsdom would report it)
    const navigate = vi.fn();
    registerNavigate(navigate);
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('goes through the registered router', async () => {
    const { navigateTo, registerNavigate } = await import('./navigation');
    const navigate = vi.fn();
    const unregister = registerNavigate(navigate);
    navigateTo('/profile');
    expect(navigate).toHaveBeenCalledWith('/profile', {});
    unregister();
  });
});
