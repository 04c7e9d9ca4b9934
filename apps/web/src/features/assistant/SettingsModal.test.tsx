import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../shared/storage';
import { renderWithProviders } from '../../test/render';
import { SettingsModal } from './SettingsModal';
import { openSettingsModal, resetAssistantSettings, useAssistantSettings } from './settingsStore';
import { json, PROVIDERS, QWEN_NO_KEY, stubServer } from './testSupport';

function dialog() {
  return screen.getByRole('dialog', { name: 'API Settings' });
}

async function choose(label: string, option: string) {
  const select = within(dialog()).getByLabelText(label);
  fireEvent.mouseDown(select);
  const item = await waitFor(() => {
    const found = Array.from(document.querySelectorAll('.ant-select-item-option')).find(
      (node) => node.textContent === option,
    );
    if (!found) throw new Error(`no option ${option}`);
    return found;
  });
  fireEvent.click(item);
}

beforeEach(() => resetAssistantSettings());
afterEach(() => resetAssistantSettings());

describe('API Settings', () => {
  it('shows the four fields, the endpoint read-only, the key as a password', async () => {
    stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json({ ...QWEN_NO_KEY, apiKey: 'sk-…3456' }),
    });
    renderWithProviders(<SettingsModal />);
    openSettingsModal();
    const modal = await screen.findByRole('dialog', { name: 'API Settings' });
    const key = within(modal).getByLabelText('OpenAI API Key');
    expect(key).toHaveAttribute('type', 'password');
    await waitFor(() => expect(key).toHaveValue('sk-…3456'));
    expect(within(modal).getByLabelText('API Endpoint')).toHaveAttribute('readonly');
    expect(within(modal).getByLabelText('API Endpoint')).toHaveValue(QWEN_NO_KEY.baseURL);
    expect(within(modal).getByLabelText('Service Provider')).toBeInTheDocument();
    expect(within(modal).getByLabelText('Model')).toBeInTheDocument();
  });

  it('fills the endpoint and first model of a selected provider', async () => {
    stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(QWEN_NO_KEY),
    });
    renderWithProviders(<SettingsModal />);
    openSettingsModal();
    await screen.findByRole('dialog', { name: 'API Settings' });
    await waitFor(() => expect(useAssistantSettings.getState().providers).not.toBeNull());
    await choose('Service Provider', 'DeepSeek');
    await waitFor(() =>
      expect(within(dialog()).getByLabelText('API Endpoint')).toHaveValue(
        'https://api.deepseek.com',
      ),
    );
    // the model shows the provider's first model
    expect(dialog()).toHaveTextContent('deepseek-chat');
    expect(dialog()).not.toHaveTextContent('qwen-plus');
  });

  it("shows the form's validation messages", async () => {
    stubServer({
      'GET /api/ai/providers': () => json({ providers: [] }),
      'GET /api/settings': () => json({ apiKey: '', provider: '', model: '', baseURL: '' }),
    });
    const { user } = renderWithProviders(<SettingsModal />);
    openSettingsModal();
    await screen.findByRole('dialog', { name: 'API Settings' });
    await waitFor(() => expect(useAssistantSettings.getState().loaded).toBe(true));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await within(dialog()).findByText('Please select a service provider')).toBeVisible();
    expect(within(dialog()).getByText('Please enter API endpoint')).toBeInTheDocument();
    expect(within(dialog()).getByText('Please select a model')).toBeInTheDocument();
  });

  it("saves, says 'API settings saved' and keeps model, endpoint and provider locally", async () => {
    const server = stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(QWEN_NO_KEY),
      'POST /api/settings': () =>
        json({
          apiKey: 'sk-…cdef',
          provider: 'deepseek',
          model: 'deepseek-chat',
          baseURL: 'https://api.deepseek.com',
        }),
    });
    const { user, fill } = renderWithProviders(<SettingsModal />);
    openSettingsModal();
    await screen.findByRole('dialog', { name: 'API Settings' });
    await waitFor(() => expect(useAssistantSettings.getState().providers).not.toBeNull());
    await choose('Service Provider', 'DeepSeek');
    await fill(within(dialog()).getByLabelText('OpenAI API Key'), 'sk-0123456789abcdef');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('API settings saved')).toBeInTheDocument();
    expect(server.called('POST /api/settings')[0]?.body).toEqual({
      apiKey: 'sk-0123456789abcdef',
      provider: 'deepseek',
      model: 'deepseek-chat',
      baseURL: 'https://api.deepseek.com',
    });
    expect(localStorage.getItem(STORAGE_KEYS.aiProvider)).toBe('deepseek');
    expect(localStorage.getItem(STORAGE_KEYS.aiModel)).toBe('deepseek-chat');
    expect(localStorage.getItem(STORAGE_KEYS.aiBaseURL)).toBe('https://api.deepseek.com');
    expect(useAssistantSettings.getState()).toMatchObject({
      apiKey: 'sk-…cdef',
      modalOpen: false,
    });
  });

  it("says 'Failed to save API settings' when the server refuses", async () => {
    stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(QWEN_NO_KEY),
      'POST /api/settings': () =>
        json(
          { code: 42200, msg: 'API endpoint not allowed', detail: 'API endpoint not allowed' },
          422,
        ),
    });
    const { user } = renderWithProviders(<SettingsModal />);
    openSettingsModal();
    await screen.findByRole('dialog', { name: 'API Settings' });
    await waitFor(() => expect(useAssistantSettings.getState().loaded).toBe(true));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to save API settings')).toBeInTheDocument();
    expect(within(dialog()).getByText('API endpoint not allowed')).toBeInTheDocument();
    expect(useAssistantSettings.getState().modalOpen).toBe(true);
  });
});
