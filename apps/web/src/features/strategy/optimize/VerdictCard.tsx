import { formatPercent, type OverfittingAnswer, type WalkForwardAnswer } from '@ct/domain';
import { Card, Descriptions, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { optimize as messages } from '../../../i18n/defaults/optimize';

const m = messages.optimize;

const COLORS = {
  'likely overfit': 'error',
  inconclusive: 'warning',
  'holds out of sample': 'success',
} as const;

const fixed = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? m.notMeasured : value.toFixed(digits);
const percent = (value: number | null | undefined) =>
  value === null || value === undefined
    ? m.notMeasured
    : formatPercent(value, 'fraction', { decimals: 0 });

/**
 * The headline of a finished optimisation: the plain verdict ("likely overfit",
 * "inconclusive", "holds out of sample") with its reasons and the measures behind it.
 */
export function VerdictCard({
  overfitting,
  walkForward,
  extra,
}: {
  overfitting: OverfittingAnswer;
  walkForward?: WalkForwardAnswer | undefined;
  extra?: ReactNode;
}) {
  return (
    <Card
      size="small"
      className={`opt-verdict opt-verdict-${COLORS[overfitting.verdict]}`}
      role="region"
      aria-label={m.verdictTitle}
      title={
        <span className="opt-verdict-title">
          {m.verdictTitle}{' '}
          <Tag color={COLORS[overfitting.verdict]} className="opt-verdict-tag">
            {m.verdicts[overfitting.verdict]}
          </Tag>
        </span>
      }
    >
      <ul className="opt-reasons">
        {overfitting.reasons.map((reason) => (
          <li key={reason}>
            <Typography.Text>{reason}</Typography.Text>
          </li>
        ))}
      </ul>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 3 }}
        items={[
          { key: 'pbo', label: m.pbo, children: percent(overfitting.pbo?.value) },
          { key: 'dsr', label: m.dsr, children: fixed(overfitting.deflated_sharpe?.value) },
          { key: 'wfe', label: m.efficiency, children: fixed(walkForward?.efficiency) },
        ]}
      />
      {extra}
    </Card>
  );
}
