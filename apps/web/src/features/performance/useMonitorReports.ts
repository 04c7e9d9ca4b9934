import { useEffect, useMemo, useState } from 'react';
import { reportBetween, type Report } from './logic';
import { MainThreadMonitor, usedHeapMb } from './monitor';

/**
 * Monitoring while `on`: the main thread is measured from mount, and every `intervalMs` a
 * report of the interval since the last one (spec section 9: every 3 s on the test page,
 * 5 s in the panel) with the JS heap where the browser tells.
 */
export function useMonitorReports(intervalMs: number, on: boolean) {
  const monitor = useMemo(() => new MainThreadMonitor(), []);
  const [report, setReport] = useState<Report | null>(null);
  const [heap, setHeap] = useState<number | null>(null);
  useEffect(() => {
    monitor.start();
    return () => monitor.stop();
  }, [monitor]);
  useEffect(() => {
    if (!on) return;
    let before = monitor.read(performance.now());
    const timer = setInterval(() => {
      const after = monitor.read(performance.now());
      setReport(reportBetween(before, after));
      setHeap(usedHeapMb());
      before = after;
    }, intervalMs);
    return () => clearInterval(timer);
  }, [on, monitor, intervalMs]);
  return { monitor, report: on ? report : null, heap: on ? heap : null };
}
