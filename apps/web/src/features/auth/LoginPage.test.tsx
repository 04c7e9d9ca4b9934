import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../shared/storage';
import { buildUser, jsonResponse } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { useAuthStore } from './store';

const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36';

/** Answers the first calls in order; later ones (the workspace's loads) stay pending. */
function mockFetch(...answers: (Response | Error)[]) {
  const fn = vi.fn((..._args: unknown[]) => new Promise<Response>(() => {}));
  for (const answer of answers) {
    if (answer instanceof Error) fn.mockRejectedValueOnce(answer);
    else fn.mockResolvedValueOnce(answer);
  }
  vi.stubGlobal('fetch', fn);
  return fn;
}

async function fillAndSubmit(email: string, password: string) {
  const view = renderApp('/login');
  const { user, fill } = view;
  await fill(await screen.findByLabelText('Email'), email);
  await fill(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  return view;
}

describe('login page', () => {
  beforeEach(() => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(DESKTOP_UA);
  });

  it('shows title, labelled fields, Submit and the theme button', async () => {
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: /Switch to (dark|light) theme/ }),
    ).toBeInTheDocument();
  });

  it('validates in the spec order, inline under the field, without calling the server', async () => {
    const fetchMock = mockFetch();
    const { user, fill } = renderApp('/login');
    const submit = await screen.findByRole('button', { name: 'Submit' });

    await user.click(submit);
    expect(await screen.findByText('Please enter your email')).toBeInTheDocument();
    expect(screen.queryByText('Please enter your password')).not.toBeInTheDocument();

    await fill(screen.getByLabelText('Email'), 'not an email');
    await user.click(submit);
    expect(await screen.findByText('Please enter a valid email format')).toBeInTheDocument();

    await fill(screen.getByLabelText('Email'), 'alice@example.com');
    await user.click(submit);
    expect(await screen.findByText('Please enter your password')).toBeInTheDocument();
    expect(screen.queryByText('Please enter a valid email format')).not.toBeInTheDocument();

    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('logs in: stores the session, selects the first trader and goes to the workspace', async () => {
    const userData = buildUser();
    const fetchMock = mockFetch(
      jsonResponse({ status: 0, msg: 'Login successful', data: [userData] }),
    );
    const { location, user, fill } = renderApp('/login');
    await fill(await screen.findByLabelText('Email'), 'alice@example.com');
    await fill(screen.getByLabelText('Password'), 'secret');
    // Enter in the password field submits.
    await user.type(screen.getByLabelText('Password'), '{Enter}');

    expect(await screen.findByText('Login successful')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/desktop'));

    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/user/api/v1/account/login');
    expect(JSON.parse(String(init.body))).toEqual({
      channel: 1,
      login_type: 2,
      user_name: 'alice@example.com',
      password: 'secret',
      device: 1,
    });
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBe('12');
    expect(localStorage.getItem(STORAGE_KEYS.userName)).toBe('alice@example.com');
    expect(localStorage.getItem(STORAGE_KEYS.isLoggedIn)).toBe('true');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.userData)!)).toEqual(userData);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.currentTrader)!)).toEqual(
      userData.traders[0],
    );
    expect(useAuthStore.getState().currentTrader?.uuid).toBe('acc-1');
    expect(await screen.findByLabelText('Account: Main Account')).toBeInTheDocument();
  });

  it.each([
    [
      'the server message on a refused login',
      { status: 1, msg: 'Account locked', data: [] },
      'Account locked',
    ],
    [
      'the default text when the server gives none',
      { status: 1, msg: '', data: [] },
      'Incorrect username or password',
    ],
    [
      'Failed to get user data on an empty data array',
      { status: 0, msg: 'ok', data: [] },
      'Failed to get user data',
    ],
  ])('shows %s', async (_name, body, text) => {
    mockFetch(jsonResponse(body));
    const { location } = await fillAndSubmit('alice@example.com', 'secret');
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(location().pathname).toBe('/login');
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
  });

  it('shows the rate-limit message the server sends with HTTP 429', async () => {
    const msg = 'Too many failed login attempts. Please try again in 15 minutes.';
    mockFetch(jsonResponse({ status: 42900, msg, data: [] }, 429));
    await fillAndSubmit('alice@example.com', 'secret');
    expect(await screen.findByText(msg)).toBeInTheDocument();
  });

  it('shows Login failed, please try again later when the call throws', async () => {
    mockFetch(new TypeError('Failed to fetch'));
    await fillAndSubmit('alice@example.com', 'secret');
    expect(await screen.findByText('Login failed, please try again later')).toBeInTheDocument();
  });

  it('keeps the Submit button loading while the call runs', async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    await fillAndSubmit('alice@example.com', 'secret');
    const submit = screen.getByRole('button', { name: /Submit/ });
    await waitFor(() => expect(submit).toHaveClass('ant-btn-loading'));
    answer(jsonResponse({ status: 1, msg: '', data: [] }));
    await waitFor(() => expect(submit).not.toHaveClass('ant-btn-loading'));
  });
});
