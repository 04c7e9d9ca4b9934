import type { Period } from '@ct/domain';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import { QUIET, done, failed, refused, type Outcome } from '../../shared/outcome';
import { useAuthStore } from '../auth';
import {
  flushAutoSave,
  workbenchTarget,
  failureDetail,
  askUser,
  type Ask,
  useEditorStore,
} from '../strategy';
import { startLiveRun, stopLiveRun, type LiveRunView } from './api';
import { lotsProblem, maxPositionsProblem } from './logic';
import { putRunStatus, refetchLiveRuns } from './queries';
import { selectRun, useLiveRunsUi } from './store';

/*
 * The live runs' user operations, one plain function each (toolbar buttons, the panel's
 * buttons and tests call them the same way); each shows its message and resolves with its
 * outcome instead of throwing. Confirmations go through `ask` (the antd dialog by default).
 */

const m = messages.liveRuns;

/** What the start form sends (the strategy is the editor's selection). */
export type StartValues = {
  uuid: string;
  symbol: string;
  period: Period;
  lots: number;
  maxPositions: number;
};

/** The form's first values: the current account, the editor's chart, size 1, one position. */
export function startDefaults(): Partial<StartValues> {
  const chart = workbenchTarget();
  const uuid = useAuthStore.getState().currentTrader?.uuid;
  return {
    ...(uuid ? { uuid } : {}),
    ...(chart?.symbol ? { symbol: chart.symbol } : {}),
    ...(chart ? { period: chart.period } : {}),
    lots: 1,
    maxPositions: 1,
  };
}

/** Run live on paper: the start form, for the strategy selected in the editor. */
export function openStartForm(): Outcome {
  if (!useEditorStore.getState().selected) return refused(m.selectFirst);
  useLiveRunsUi.setState({ startOpen: true });
  return { success: true, message: null };
}

export function closeStartForm(): void {
  useLiveRunsUi.setState({ startOpen: false });
}

/** The Live Runs panel (the newest run shown when none is). */
export function openLiveRuns(): void {
  useLiveRunsUi.setState({ panelOpen: true });
}

export function closeLiveRuns(): void {
  useLiveRunsUi.setState({ panelOpen: false });
}

/**
 * Starts the selected strategy live on paper: a pending auto-save is written first, so the
 * run copies the code the editor shows. On success the form closes and the panel shows the
 * new run; a refusal shows the server's reason (the form stays open to correct it).
 */
export async function startRun(values: StartValues): Promise<Outcome> {
  const strategy = useEditorStore.getState().selected;
  if (!strategy) return refused(m.selectFirst);
  const trader = useAuthStore.getState().user?.traders.find((t) => t.uuid === values.uuid);
  if (!trader) return refused(m.accountRequired);
  const problem = lotsProblem(values.lots) ?? maxPositionsProblem(values.maxPositions);
  if (problem) return refused(problem);
  await flushAutoSave();
  try {
    const started = await startLiveRun({
      strategy_name: strategy,
      uuid: trader.uuid,
      token: trader.token,
      symbol_id: values.symbol,
      period: values.period,
      lots: values.lots,
      max_positions: values.maxPositions,
    });
    closeStartForm();
    selectRun(started.id);
    useLiveRunsUi.setState({ panelOpen: true, tab: 'evaluations' });
    await refetchLiveRuns();
    return done(m.started(strategy, values.symbol));
  } catch (error) {
    const detail = failureDetail(error);
    return failed(detail ? `${m.startFailed}: ${detail}` : m.startFailed);
  }
}

/** Stop, after a confirmation: the run sends no more orders; what it holds stays open. */
export async function stopRun(
  run: Pick<LiveRunView, 'id' | 'strategy_name' | 'symbol_id'>,
  options: { ask?: Ask } = {},
): Promise<Outcome> {
  const ask = options.ask ?? askUser;
  let outcome: Outcome = QUIET;
  await ask(
    {
      title: m.stopTitle,
      content: m.stopContent(run.strategy_name, run.symbol_id),
      okText: m.stopOk,
      cancelText: m.cancel,
      okButtonProps: { danger: true },
    },
    async () => {
      try {
        putRunStatus(await stopLiveRun(run.id));
        outcome = done(m.stopped);
      } catch (error) {
        const detail = failureDetail(error);
        outcome = failed(detail ? `${m.stopFailed}: ${detail}` : m.stopFailed);
      }
    },
  );
  return outcome;
}
