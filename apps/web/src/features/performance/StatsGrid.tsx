import { Statistic } from 'antd';
import { perfTest as messages } from '../../i18n/defaults/perfTest';
import { frameStats } from '../../realtime/frameBridge';
import { liveStats } from '../../realtime/live';
import type { Report } from './logic';

const labels = messages.perfTest;

/** The live stats of a report (the test page's monitoring card and the 5 s panel). */
export function StatsGrid({ report, heap }: { report: Report | null; heap: number | null }) {
  const value = (n: number | undefined) => (report ? n : undefined);
  return (
    <div className="perf-stats">
      <Statistic title={labels.messagesPerSecond} value={value(report?.messagesPerSecond)} />
      <Statistic title={labels.updatesPerSecond} value={value(report?.updatesPerSecond)} />
      <Statistic title={labels.coalescedPerSecond} value={value(report?.coalescedPerSecond)} />
      <Statistic title={labels.batchSize} value={value(report?.meanBatch)} />
      <Statistic title={labels.maxBatch} value={report ? liveStats.maxBatchSize : undefined} />
      <Statistic title={labels.longTasks} value={value(report?.longTasks)} />
      <Statistic title={labels.longTaskTime} value={value(report?.longTaskMs)} suffix="ms" />
      <Statistic title={labels.frameRate} value={value(report?.fps)} suffix="fps" />
      <Statistic
        title={labels.memory}
        value={heap ?? labels.notReported}
        suffix={heap === null ? undefined : 'MB'}
      />
      <Statistic
        title={labels.frameMessages}
        value={report ? `${frameStats.received} / ${frameStats.sent}` : undefined}
      />
      <Statistic
        title={labels.ignoredMessages}
        value={report ? frameStats.foreignOrigin + frameStats.malformed : undefined}
      />
    </div>
  );
}
