import { formatEpochSeconds } from '@ct/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildTrader, buildUser } from '../../test/fixtures';
import { renderApp, storeSession } from '../../test/render';
import { STORAGE_KEYS } from '../../shared/storage';

/** The value cell next to a Descriptions label. */
function valueOf(label: string): string {
  const labelCell = screen.getByText(label, { selector: 'th, th *, td, td *' });
  const cell = labelCell.closest('th, td')!;
  return (cell.nextElementSibling as HTMLElement).textContent ?? '';
}

describe('profile page', () => {
  it('shows Please login first with a Login button when no user is stored', async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '12');
    localStorage.setItem(STORAGE_KEYS.userName, 'alice@example.com');
    const { user, location } = renderApp('/profile');
    expect(await screen.findByText('Please login first')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
  });

  it('shows the identity card: avatar letter, nickname and User ID | Channel', async () => {
    storeSession(buildUser({ id: 12, channel: 1 }));
    renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'alice' })).toBeInTheDocument();
    expect(screen.getByText('A', { selector: '.ant-avatar *' })).toBeInTheDocument();
    expect(screen.getByText('User ID | Channel')).toBeInTheDocument();
    expect(screen.getByTestId('user-id-channel')).toHaveTextContent('12 | 1');
    expect(screen.getByRole('button', { name: /Return to Main Page/ })).toBeInTheDocument();
    expect(screen.getByLabelText('Account: Main Account')).toBeInTheDocument();
  });

  it('falls back to U and Unknown User without a nickname', async () => {
    storeSession(buildUser({ nick_name: null }));
    renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'Unknown User' })).toBeInTheDocument();
    expect(screen.getByText('U', { selector: '.ant-avatar *' })).toBeInTheDocument();
  });

  it('shows the basic information with the spec formats', async () => {
    const data = buildUser({
      audit_status: 1,
      audit_remark: '',
      audit_at: 1_700_000_000,
      created_at: 1_690_000_000,
      updated_at: null,
      country: null,
    });
    storeSession(data);
    renderApp('/profile');
    await screen.findByText('Basic Information');
    expect(valueOf('Nickname')).toBe('alice');
    expect(valueOf('Phone')).toBe('+1 555 0100');
    expect(valueOf('Email')).toBe('alice@example.com');
    expect(valueOf('Country/Region')).toBe('Not set');
    expect(valueOf('Audit Status')).toBe('Approved');
    expect(valueOf('Audit Remarks')).toBe('None');
    expect(valueOf('Audit Time')).toBe(formatEpochSeconds(1_700_000_000));
    expect(valueOf('Audit Time')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(valueOf('Creation Time')).toBe(formatEpochSeconds(1_690_000_000));
    expect(valueOf('Last Update')).toBe('Unknown');
  });

  it('shows Not Approved, the remark and Not set for empty values', async () => {
    storeSession(
      buildUser({ audit_status: 0, audit_remark: 'Documents missing', phone: '', email: null }),
    );
    renderApp('/profile');
    await screen.findByText('Basic Information');
    expect(valueOf('Audit Status')).toBe('Not Approved');
    expect(valueOf('Audit Remarks')).toBe('Documents missing');
    expect(valueOf('Phone')).toBe('Not set');
    expect(valueOf('Email')).toBe('Not set');
  });

  it('edits locally: validates, shows the success message and calls nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    storeSession(buildUser());
    const { user, fill } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: /Edit/ }));

    const nickname = screen.getByLabelText('Nickname');
    expect(nickname).toHaveValue('alice');
    expect(screen.getByLabelText('Phone')).toHaveValue('+1 555 0100');

    await fill(nickname, '');
    await fill(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter a nickname')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email format')).toBeInTheDocument();

    await fill(nickname, 'Alice B');
    await fill(screen.getByLabelText('Email'), 'alice.b@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile information updated successfully')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    // Back to the read-only view.
    expect(screen.queryByLabelText('Nickname')).not.toBeInTheDocument();
  });

  it('Cancel leaves the form without a message', async () => {
    storeSession(buildUser());
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: /Edit/ }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Nickname')).not.toBeInTheDocument();
    expect(screen.queryByText('Profile information updated successfully')).not.toBeInTheDocument();
  });

  it('lists the trading accounts with the Current tag, level tags and types', async () => {
    storeSession(
      buildUser({
        traders: [
          buildTrader({ uuid: 'acc-1', name: 'Main Account', level: 1, type: 1 }),
          buildTrader({ uuid: 'acc-2', name: 'Second Account', level: 2, type: 7 }),
        ],
      }),
    );
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('tab', { name: 'Trading Accounts' }));
    const table = (await screen.findByText('Account ID', { selector: 'th' })).closest('table')!;
    const rows = within(table).getAllByRole('row');
    expect(rows[0]).toHaveTextContent(/Account Name.*Account ID.*Level.*Type/);
    expect(rows[1]).toHaveTextContent('Main Account');
    expect(within(rows[1]!).getByText('Current')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('acc-1');
    expect(within(rows[1]!).getByText('Level 1')).toHaveAttribute('data-colour', 'gray');
    expect(rows[1]).toHaveTextContent('Standard');
    expect(within(rows[2]!).queryByText('Current')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('Level 2')).toHaveAttribute('data-colour', 'blue');
    expect(rows[2]).toHaveTextContent('Type 7');
  });

  it('shows No trading accounts for a user without accounts', async () => {
    storeSession(buildUser({ traders: [] }));
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('tab', { name: 'Trading Accounts' }));
    expect(await screen.findAllByText('No trading accounts')).not.toHaveLength(0);
  });
});
