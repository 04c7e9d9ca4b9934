import { isDefaultStrategy } from '../logic';
import { useStrategies, useStrategyVersions } from '../queries';
import { useEditorStore, useWorkbenchStore } from '../store';

/** The selection, and whether it is a saved strategy (in the list, not Default). */
export function useSavedSelection(): { selected: string | null; saved: boolean } {
  const selected = useEditorStore((s) => s.selected);
  const strategies = useStrategies();
  const saved =
    selected !== null &&
    !isDefaultStrategy(selected) &&
    strategies.some((s) => s.name === selected);
  return { selected, saved };
}

/** The selected saved strategy's kept versions, fetched while the editor is open. */
export function useSelectedVersions() {
  const open = useWorkbenchStore((s) => s.open);
  const { selected, saved } = useSavedSelection();
  return { selected, saved, ...useStrategyVersions(selected, open && saved) };
}
