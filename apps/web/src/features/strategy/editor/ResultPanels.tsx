import { isDefaultStrategy } from '../logic';
import { restoreVersion, saveRunResults, showOnChart, viewResultDetails } from '../actions';
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
          ? () => showOnChart(results.deals, results.symbol)
          : undefined
      }
    />
  );
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
      onViewDetails={viewResultDetails}
      onShowOnChart={(r) => showOnChart(r.deals, r.symbol_id)}
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
