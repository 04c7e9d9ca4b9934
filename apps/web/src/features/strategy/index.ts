// The strategy feature's public face: what other features may import (apps/web/boundaries.js).
// The workbench's actions load on demand for the assistant's Apply: lazy.ts.
export { registerWorkbenchAddons } from './addons';
export { flushAutoSave, proposeCode, selectStrategy, workbenchTarget } from './actions';
export { failureDetail } from './api';
export { readEditorCode, useCodeEditorHook, type CodeEditorRequest } from './codeEditorHook';
export { askUser, type Ask } from './confirm';
export { EquityChart } from './EquityChart';
export { workflowChart } from './frameWorkflow';
export { isDefaultStrategy, newStrategyNameProblem } from './logic';
export { putSavedStrategy, refetchStrategies, strategiesQuery, strategyListKnown } from './queries';
export { registerStrategySharedActions } from './register';
export { metricRows, ResultsModal } from './ResultsModal';
export { useEditorStore, useLastBacktest, useWorkbenchStore } from './store';
export { cachedTemplate, loadStrategyTemplate, useTemplateCode } from './strategyTemplate';
export { StrategyWorkbenchHost } from './WorkbenchHost';
