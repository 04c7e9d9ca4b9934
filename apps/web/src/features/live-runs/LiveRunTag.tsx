import './liveRunTag.css';
import { Tag, Tooltip } from 'antd';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import { liveRunIdOf, shortRunId } from './logic';

const m = messages.liveRuns;

/**
 * The small tag of a trade table row that a live run sent (its comment `live:<id>`, or its
 * order's key naming the run); nothing for a person's own orders.
 */
export function LiveRunTag({
  row,
}: {
  row: { comment?: string | null; clientOrderId?: string | null };
}) {
  const id = liveRunIdOf(row);
  if (!id) return null;
  return (
    <Tooltip title={m.tagTitle(shortRunId(id))}>
      <Tag className="live-run-tag" bordered={false} aria-label={m.tagTitle(shortRunId(id))}>
        {m.tag}
      </Tag>
    </Tooltip>
  );
}
