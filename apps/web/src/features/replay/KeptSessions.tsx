import type { Period } from '@ct/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Select } from 'antd';
import { useState } from 'react';
import { replay as messages } from '../../i18n/defaults/replay';
import { listReplays } from './api';

const m = messages.replay;

/** The query key of the user's kept sessions (GET /api/replays). */
export const replaysKey = ['replays'] as const;

/**
 * The user's kept sessions of this chart's instrument and period (GET /api/replays, the last
 * changed first): pick one and Resume it at its cursor. Nothing when there is none.
 */
export function KeptSessions({
  symbol,
  period,
  formatTime,
  onResume,
}: {
  symbol: string;
  period: Period;
  formatTime: (seconds: number) => string;
  onResume: (id: string) => void;
}) {
  const { data } = useQuery({ queryKey: replaysKey, queryFn: listReplays, staleTime: 0 });
  const kept = (data?.replays ?? []).filter((r) => r.symbol_id === symbol && r.period === period);
  const [chosen, setChosen] = useState<string | null>(null);
  if (kept.length === 0) return null;
  const id = chosen !== null && kept.some((r) => r.id === chosen) ? chosen : kept[0]!.id;
  return (
    <span className="replay-field replay-kept">
      <Select
        size="small"
        className="replay-kept-select"
        aria-label={m.kept}
        value={id}
        onChange={setChosen}
        options={kept.map((r) => ({
          value: r.id,
          label: m.keptOption(formatTime(r.cursor), r.strategy_name),
        }))}
      />
      <Button size="small" onClick={() => onResume(id)}>
        {m.resume}
      </Button>
    </span>
  );
}
