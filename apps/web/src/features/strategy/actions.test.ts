import type { StrategyVersion } from '@ct/domain';
import type { IRange } from 'monaco-editor';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../shared/notify';
import { queryClient } from '../../shared/queryClient';
import { jsonResponse } from '../../test/fixtures';
import {
  acceptProposal,
  autoSave,
  deleteCurrentStrategy,
  disposeAutoSave,
  editCode,
  flushAutoSave,
  proposeCode,
  rejectProposal,
  restoreVersion,
  saveAsNewStrategy,
  saveCurrentStrategy,
  selectStrategy,
} from './actions';
import type { SavedStrategy } from './api';
import type { Ask } from './confirm';
import { attachEditor, type WorkbenchEditor } from './editorBridge';
import { versionTime } from './logic';
import { strategiesQuery, strategyKeys, versionsQuery } from './queries';
import { resetEditorStore, useEditorStore } from './store';

const SAVED = 'def main(data_array):\n    return []\n';

function row(name: string, code: string): SavedStrategy {
  return { name, code, created_at: 1, updated_at: 2 };
}

type Call = { method: string; path: string; body: unknown };

/** Answers the strategy calls like the server: a save echoes the code it stored. */
function serve() {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://x').pathname;
    const method = init.method ?? 'GET';
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    if (method === 'POST' && path === '/api/strategies/') {
      const { name, code } = body as { name: string; code: string };
      return jsonResponse({ name, code, created_at: 1, updated_at: 3, created: false });
    }
    if (method === 'DELETE') return jsonResponse({ success: true });
    if (path.endsWith('/versions')) return jsonResponse({ strategy_name: 'x', versions: [] });
    return jsonResponse({ strategies: [] });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** A Monaco editor as far as the workbench uses it; edits and loads are recorded. */
function fakeEditor(text = '') {
  const range: IRange = { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 };
  const log: string[] = [];
  const model = {
    value: text,
    getValue: () => model.value,
    setValue: (next: string) => {
      log.push(`load ${next}`);
      model.value = next;
    },
    getFullModelRange: () => range,
  };
  const editor: WorkbenchEditor = {
    getModel: () => model,
    pushUndoStop: () => log.push('undo stop'),
    executeEdits: (_source, edits) => {
      for (const edit of edits) {
        log.push(`edit ${edit.text}`);
        model.value = edit.text;
      }
    },
  };
  return { editor, model, log };
}

const list = () => queryClient.getQueryData(strategiesQuery.queryKey);
const confirmAll: Ask = async (_question, proceed) => {
  await proceed();
  return true;
};
const cancelAll: Ask = async () => false;

let detach: (() => void) | null = null;

beforeEach(() => {
  // Toasts outside the app's providers would render in a React root of antd's own that
  // outlives the test file; the tests read the calls instead.
  for (const kind of ['success', 'error', 'warning', 'info'] as const) {
    vi.spyOn(notify, kind).mockImplementation(() => {});
  }
  resetEditorStore();
  queryClient.setQueryData(strategiesQuery.queryKey, [row('Mine', SAVED), row('Other', '# b')]);
});
afterEach(() => {
  detach?.();
  detach = null;
  disposeAutoSave();
});

describe('saving goes through the query cache', () => {
  it('Save Current Strategy keeps a version and puts the answer into the list', async () => {
    const calls = serve();
    useEditorStore.setState({ selected: 'Mine', code: '# new' });
    const success = vi.spyOn(notify, 'success');
    queryClient.setQueryData(versionsQuery('Mine').queryKey, []);

    const outcome = await saveCurrentStrategy();

    expect(outcome).toEqual({ success: true, message: 'Strategy saved successfully' });
    expect(success).toHaveBeenCalledWith('Strategy saved successfully');
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/strategies/',
      body: { name: 'Mine', code: '# new', create: false, keep_version: true },
    });
    expect(list()).toEqual([{ ...row('Mine', '# new'), updated_at: 3 }, row('Other', '# b')]);
    // the save may have kept a version: the versions are fetched again
    expect(queryClient.getQueryState(strategyKeys.versions('Mine'))?.isInvalidated).toBe(true);
  });

  it('refuses Default and no selection without a call', async () => {
    const calls = serve();
    const warning = vi.spyOn(notify, 'warning');
    expect(await saveCurrentStrategy()).toEqual({
      success: false,
      message: 'Default strategy cannot be modified',
    });
    useEditorStore.setState({ selected: null });
    expect((await saveCurrentStrategy()).message).toBe('Please select a strategy first');
    expect(warning).toHaveBeenCalledTimes(2);
    expect(calls).toEqual([]);
  });

  it('saving empty code over saved code asks first; cancelled, nothing is sent', async () => {
    const calls = serve();
    useEditorStore.setState({ selected: 'Mine', code: '  ' });
    const ask = vi.fn(cancelAll);

    expect(await saveCurrentStrategy({ ask })).toEqual({ success: false, message: null });
    expect(ask.mock.calls[0]?.[0]).toMatchObject({
      title: 'Save empty code?',
      okText: 'Replace with empty code',
    });
    expect(calls).toEqual([]);
    expect(list()?.[0]?.code).toBe(SAVED);

    expect(await saveCurrentStrategy({ ask: confirmAll })).toMatchObject({ success: true });
    expect(calls[0]?.body).toMatchObject({ code: '  ', allow_empty: true, keep_version: true });
    expect(list()?.[0]?.code).toBe('  ');
  });

  it('Save as New Strategy: a refused name stays inline; the new one joins the list, selected', async () => {
    const calls = serve();
    useEditorStore.setState({ code: '# mine too', saveAsOpen: true });
    expect(await saveAsNewStrategy('   ')).toEqual({
      success: false,
      message: 'Please enter a strategy name',
      inline: true,
    });
    expect(await saveAsNewStrategy('default')).toMatchObject({
      message: 'Default strategy cannot be modified',
      inline: true,
    });
    expect(calls).toEqual([]);

    expect(await saveAsNewStrategy(' Alpha ')).toEqual({
      success: true,
      message: 'Strategy created successfully',
    });
    expect(calls[0]?.body).toMatchObject({ name: 'Alpha', code: '# mine too', create: true });
    expect(list()?.map((s) => s.name)).toEqual(['Alpha', 'Mine', 'Other']);
    expect(useEditorStore.getState()).toMatchObject({ selected: 'Alpha', saveAsOpen: false });
  });
});

describe('auto-save guard reads the cache', () => {
  it.each(['', '   ', '\n\t\n'])(
    'never stores blank code %j over the code the list holds',
    async (blank) => {
      const calls = serve();
      const warning = vi.spyOn(notify, 'warning');
      expect(await autoSave('Mine', blank)).toBe('skipped');
      expect(calls).toEqual([]);
      expect(useEditorStore.getState().indicator).toBe('skipped');
      expect(warning).toHaveBeenCalledWith(
        'Auto-save skipped: the editor is empty, so the saved code of Mine was kept. Use Save Current Strategy to save empty code.',
      );
      expect(list()?.[0]?.code).toBe(SAVED);
    },
  );

  it('stores other code without keeping a version, and the answer becomes the guard', async () => {
    const calls = serve();
    expect(await autoSave('Other', '# typed')).toBe('success');
    expect(calls[0]?.body).toEqual({ name: 'Other', code: '# typed', create: false });
    expect(list()?.[1]?.code).toBe('# typed');
    expect(useEditorStore.getState().indicator).toBe('success');
    // blank code over the code just saved is skipped too
    expect(await autoSave('Other', '')).toBe('skipped');
    expect(calls).toHaveLength(1);
  });

  it('never auto-saves Default', async () => {
    const calls = serve();
    expect(await autoSave('Default Strategy', '# x')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('switching strategies flushes the pending auto-save and loads the other code', async () => {
    const calls = serve();
    const fake = fakeEditor();
    detach = attachEditor(fake.editor);
    selectStrategy('Mine');
    expect(fake.log).toEqual([`load ${SAVED}`]);
    editCode('# edited');
    selectStrategy('Other');
    await vi.waitFor(() => expect(list()?.[0]?.code).toBe('# edited'));
    expect(calls[0]?.body).toMatchObject({ name: 'Mine', code: '# edited' });
    // loads are setValue (no undo step), never edits
    expect(fake.log).toEqual([`load ${SAVED}`, 'load # b']);
    expect(useEditorStore.getState()).toMatchObject({ selected: 'Other', code: '# b' });
  });
});

describe('an offered change (the assistant’s Apply) waits for Accept', () => {
  const OFFER = 'def main(data_array):\n    return []  # offered\n';

  /** The editor as mounted: its edits reach `editCode`, as Monaco's change event does. */
  function mountedEditor(text: string) {
    const fake = fakeEditor(text);
    const executeEdits = fake.editor.executeEdits.bind(fake.editor);
    fake.editor.executeEdits = (source, edits) => {
      executeEdits(source, edits);
      editCode(fake.model.getValue());
    };
    detach = attachEditor(fake.editor);
    return fake;
  }

  it('offers a diff of a saved strategy; nothing is edited or sent before Accept', async () => {
    const calls = serve();
    useEditorStore.setState({ selected: 'Mine', code: SAVED });
    const fake = mountedEditor(SAVED);

    expect(proposeCode(OFFER, 'ai-assistant-apply')).toBe(true);

    expect(useEditorStore.getState().proposal).toEqual({
      code: OFFER,
      original: SAVED,
      source: 'ai-assistant-apply',
    });
    expect(await flushAutoSave()).toBeNull();
    expect(fake.log).toEqual([]);
    expect(calls).toEqual([]);
    expect(useEditorStore.getState().code).toBe(SAVED);
  });

  it('Reject drops it: the editor and the server keep the saved code', async () => {
    const calls = serve();
    useEditorStore.setState({ selected: 'Mine', code: SAVED });
    const fake = mountedEditor(SAVED);
    proposeCode(OFFER, 'ai-assistant-apply');

    rejectProposal();

    expect(useEditorStore.getState().proposal).toBeNull();
    expect(await flushAutoSave()).toBeNull();
    expect(fake.log).toEqual([]);
    expect(calls).toEqual([]);
    expect(list()?.[0]?.code).toBe(SAVED);
  });

  it('Accept makes it one undoable edit, then auto-saved as the saved strategy’s code', async () => {
    const calls = serve();
    useEditorStore.setState({ selected: 'Mine', code: SAVED });
    const fake = mountedEditor(SAVED);
    proposeCode(OFFER, 'ai-assistant-apply');

    acceptProposal();

    expect(useEditorStore.getState().proposal).toBeNull();
    expect(fake.log).toEqual(['undo stop', `edit ${OFFER}`, 'undo stop']);
    expect(await flushAutoSave()).toBe('success');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/strategies/',
      body: { name: 'Mine', code: OFFER, create: false, keep_version: true },
    });
    // later edits auto-save as usual
    editCode('# typed after');
    expect(await flushAutoSave()).toBe('success');
    expect(calls[1]?.body).toEqual({ name: 'Mine', code: '# typed after', create: false });
  });

  it('an offer of the code the editor holds changes nothing and says so', () => {
    const info = vi.spyOn(notify, 'info');
    useEditorStore.setState({ selected: 'Mine', code: SAVED });
    mountedEditor(SAVED);
    expect(proposeCode(SAVED, 'ai-assistant-apply')).toBe(false);
    expect(useEditorStore.getState().proposal).toBeNull();
    expect(info).toHaveBeenCalledWith('The editor already holds this code');
  });

  it('selecting another strategy lets a pending offer lapse', () => {
    serve();
    useEditorStore.setState({ selected: 'Mine', code: SAVED });
    const fake = mountedEditor(SAVED);
    proposeCode(OFFER, 'ai-assistant-apply');
    selectStrategy('Other');
    expect(useEditorStore.getState().proposal).toBeNull();
    expect(fake.log).toEqual(['load # b']);
  });
});

describe('restore and delete', () => {
  const version: StrategyVersion = {
    id: 7,
    strategy_name: 'Mine',
    code: '# first version',
    created_at: 1_700_000_000,
    length: 15,
    lines: 1,
  };

  it('a restored version is an undoable edit, saved at once into the cache', async () => {
    const calls = serve();
    useEditorStore.setState({ selected: 'Mine', code: SAVED, versionsOpen: true });
    const fake = fakeEditor(SAVED);
    detach = attachEditor(fake.editor);
    const success = vi.spyOn(notify, 'success');

    const outcome = await restoreVersion(version);

    const message = `Previous version restored (saved at ${versionTime(1_700_000_000)})`;
    expect(outcome).toEqual({ success: true, message });
    expect(success).toHaveBeenCalledWith(message);
    expect(fake.log).toEqual(['undo stop', 'edit # first version', 'undo stop']);
    expect(calls[0]?.body).toMatchObject({ name: 'Mine', code: '# first version' });
    expect(calls[0]?.body).toMatchObject({ keep_version: true });
    expect(list()?.[0]?.code).toBe('# first version');
    expect(useEditorStore.getState()).toMatchObject({
      versionsOpen: false,
      code: '# first version',
    });
  });

  it('restoring does nothing without a mounted editor', async () => {
    const calls = serve();
    useEditorStore.setState({ selected: 'Mine' });
    expect(await restoreVersion(version)).toEqual({ success: false, message: null });
    expect(calls).toEqual([]);
  });

  it('Delete Strategy, confirmed, leaves the list and empties the editor', async () => {
    const calls = serve();
    useEditorStore.setState({ selected: 'Mine', code: SAVED });
    const fake = fakeEditor(SAVED);
    detach = attachEditor(fake.editor);
    queryClient.setQueryData(versionsQuery('Mine').queryKey, []);

    expect(await deleteCurrentStrategy({ ask: cancelAll })).toEqual({
      success: false,
      message: null,
    });
    expect(calls).toEqual([]);

    expect(await deleteCurrentStrategy({ ask: confirmAll })).toEqual({
      success: true,
      message: 'Strategy deleted successfully',
    });
    expect(calls[0]).toMatchObject({ method: 'DELETE', path: '/api/strategies/Mine' });
    expect(list()).toEqual([row('Other', '# b')]);
    expect(queryClient.getQueryData(versionsQuery('Mine').queryKey)).toBeUndefined();
    expect(useEditorStore.getState()).toMatchObject({ selected: null, code: '' });
    expect(fake.log).toEqual(['load ']);
  });
});
