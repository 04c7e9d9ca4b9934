import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../test/fixtures';
import { renderApp, storeSession } from '../test/render';
import { isMobileUserAgent, rootRedirectTarget } from './redirect';

const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('root redirect rules', () => {
  it('sends desktops to /desktop keeping query and hash', () => {
    expect(rootRedirectTarget(at('/'), DESKTOP_UA)).toBe('/desktop');
    expect(rootRedirectTarget(at('/', '?a=1', '#x'), DESKTOP_UA)).toBe('/desktop?a=1#x');
  });

  it('sends phones to /phone keeping query and hash', () => {
    expect(isMobileUserAgent(PHONE_UA)).toBe(true);
    expect(isMobileUserAgent(ANDROID_UA)).toBe(true);
    expect(isMobileUserAgent(DESKTOP_UA)).toBe(false);
    expect(rootRedirectTarget(at('/', '?a=1', '#x'), PHONE_UA)).toBe('/phone?a=1#x');
  });

  it('sends a path of /chart to /chart keeping the query', () => {
    expect(rootRedirectTarget(at('/chart', '?instrumentId=7'), PHONE_UA)).toBe(
      '/chart?instrumentId=7',
    );
  });

  it('sends a #/chart hash to /chart keeping the query, wherever it is written', () => {
    expect(rootRedirectTarget(at('/', '?instrumentId=7', '#/chart'), DESKTOP_UA)).toBe(
      '/chart?instrumentId=7',
    );
    expect(rootRedirectTarget(at('/', '', '#/chart?instrumentId=9'), PHONE_UA)).toBe(
      '/chart?instrumentId=9',
    );
    expect(rootRedirectTarget(at('/', '', '#/chart'), DESKTOP_UA)).toBe('/chart');
  });
});

describe('routes', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('redirects / on a desktop to /desktop with query and hash', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(DESKTOP_UA);
    storeSession(buildUser());
    const { location } = renderApp('/?layout=2#top');
    await screen.findByRole('button', { name: /^Account:/ });
    expect(location().pathname).toBe('/desktop');
    expect(location().search).toBe('?layout=2');
    expect(location().hash).toBe('#top');
  });

  it('redirects / on a phone to /phone', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(PHONE_UA);
    storeSession(buildUser());
    const { location } = renderApp('/');
    await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(location().pathname).toBe('/phone');
  });

  it('redirects /#/chart?instrumentId=3 to /chart?instrumentId=3', async () => {
    storeSession(buildUser());
    const { location } = renderApp('/#/chart?instrumentId=3');
    await screen.findByRole('status');
    expect(location().pathname).toBe('/chart');
    expect(location().search).toBe('?instrumentId=3');
  });

  it('sends unknown paths to / (and on to the login page when signed out)', async () => {
    const { location } = renderApp('/no/such/page');
    await screen.findByRole('heading', { name: 'Login' });
    expect(location().pathname).toBe('/login');
  });
});
