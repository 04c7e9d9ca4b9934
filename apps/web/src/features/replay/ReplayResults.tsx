import { replayResults, type ReplayView } from '@ct/domain';
import { BarChartOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { replay as messages } from '../../i18n/defaults/replay';
import { useSymbolInfo } from '../../market/instruments';
import { ResultsModal } from '../strategy';

const m = messages.replay;

/**
 * The replay bar's Results: the session's trades and equity in the backtest's results modal
 * (its deals and figures computed by the domain's replayResults, as a backtest's are).
 */
export function ReplayResults({ view }: { view: ReplayView }) {
  const [open, setOpen] = useState(false);
  const info = useSymbolInfo(view.symbol_id);
  const result = useMemo(
    () => (open ? replayResults(view, info ?? null) : null),
    [open, view, info],
  );
  return (
    <>
      <Tooltip title={m.resultsHint}>
        <Button
          size="small"
          icon={<BarChartOutlined />}
          className="replay-results"
          onClick={() => setOpen(true)}
        >
          {m.results}
        </Button>
      </Tooltip>
      <ResultsModal
        open={open}
        view={result && { ...result, error: null, symbol: view.symbol_id }}
        onClose={() => setOpen(false)}
        title={m.resultsTitle}
        saveDisabled
      />
    </>
  );
}
