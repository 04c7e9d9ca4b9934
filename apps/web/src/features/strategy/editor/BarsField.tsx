import { InputNumber, Tooltip } from 'antd';
import { strategy as messages } from '../../../i18n/defaults/strategy';
import { barsProblem } from '../logic';
import { useEditorStore } from '../store';

const m = messages.strategy;

/**
 * How many of the chart's newest bars Run Code backtests (the server loads them: up to
 * 1,000,000). A value it cannot take is marked, and its message shown, beside the field.
 */
export function BarsField() {
  const bars = useEditorStore((s) => s.bars);
  const problem = barsProblem(bars);
  return (
    <Tooltip title={problem ?? m.barsHint} color={problem ? 'red' : undefined}>
      <InputNumber<number>
        aria-label={m.bars}
        prefix={m.bars}
        aria-invalid={problem !== null}
        status={problem ? 'error' : undefined}
        style={{ width: 190 }}
        controls={false}
        value={bars}
        // '1,000,000' and '1000000' both read
        formatter={(value, { userTyping, input }) =>
          userTyping || value === undefined ? input : Number(value).toLocaleString('en-US')
        }
        parser={(text) => {
          const digits = (text ?? '').replace(/[,\s]/g, '');
          return digits === '' ? NaN : Number(digits);
        }}
        onChange={(value) => useEditorStore.setState({ bars: value ?? null })}
      />
    </Tooltip>
  );
}
