import { strategy as messages } from '../../../i18n/defaults/strategy';
import { notify } from '../../../shared/notify';
import type { StrategyResult, StrategyResultSummary } from '../api';
import { isDefaultStrategy } from '../logic';
import { loadSavedResult } from '../queries';
import {
  restoreVersion,
  saveRunResults,
  showFeedsOnChart,
  showOnChart,
  showSavedResultOnChart,
  viewResultDetails,
} from '../actions';
import { ResultsModal } from '../ResultsModal';
import { RunHistoryModal } from '../RunHistoryModal';
import { setPanel, useEditorStore } from '../store';
import { VersionsModal } from '../VersionsModal';
import { useSelectedVersions } from './selection';

/** Backtest Results of the last run or of a saved result, with Save Results and Show on Chart. */
export function ResultsPane() {
  const results = useEditorStore((s) => s.results);
  const saving = useEditorStore((s) => s.savingResults);
  const selected = useEditorStore((s) => s.selected);
  const saveDisabled =
    !results?.performance || !selected || isDefaultStrategy(selected) || results.saved;
  return (
    <ResultsModal
      open={results !== null}
      view={results}
      onClose={() => useEditorStore.setState({ results: null })}
      onSave={() => void saveRunResults()}
      saveDisabled={saveDisabled}
      saving={saving}
      onShowOnChart={
        results && results.deals.length > 0
          ? results.feeds
            ? () => showFeedsOnChart(results.deals, results.feeds ?? [])
            : () => showOnChart(results.deals, results.symbol)
          : undefined
      }
    />
  );
}

/** A listed result with its deals (fetched page by page), then `then`; a failure is told. */
async function withSavedResult(
  summary: StrategyResultSummary,
  then: (result: StrategyResult) => void,
): Promise<void> {
  let result: StrategyResult;
  try {
    result = await loadSavedResult(summary);
  } catch {
    notify.error(messages.backtestLimits.resultLoadFailed);
    return;
  }
  then(result);
}

/** Strategy Run History of the selection, while open. */
export function RunHistoryPanel() {
  const open = useEditorStore((s) => s.historyOpen);
  const selected = useEditorStore((s) => s.selected);
  if (!open || !selected) return null;
  return (
    <RunHistoryModal
      strategy={selected}
      onClose={() => setPanel('historyOpen', false)}
      onViewDetails={(r) => withSavedResult(r, viewResultDetails)}
      onShowOnChart={(r) => withSavedResult(r, (full) => void showSavedResultOnChart(full))}
    />
  );
}

/** Restore previous version of the selection, while open. */
export function VersionsPanel() {
  const open = useEditorStore((s) => s.versionsOpen);
  const { selected, versions, loading } = useSelectedVersions();
  if (!open || !selected) return null;
  return (
    <VersionsModal
      strategy={selected}
      versions={versions}
      loading={loading}
      onRestore={(version) => void restoreVersion(version)}
      onClose={() => setPanel('versionsOpen', false)}
    />
  );
}
