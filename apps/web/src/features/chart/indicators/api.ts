import { chartIndicatorsBodySchema, chartKeySchema, type IndicatorConfig } from '@ct/domain';
import { http } from '../../../api/client';

const path = (chartKey: string) =>
  `/api/charts/indicators/${encodeURIComponent(chartKeySchema.parse(chartKey))}`;

/** A chart's saved indicators (`GET /api/charts/indicators/{chartKey}`); empty when none. */
export async function fetchChartIndicators(chartKey: string): Promise<IndicatorConfig[]> {
  const answer = await http.get(path(chartKey), {
    schema: chartIndicatorsBodySchema,
    noCache: true,
  });
  return answer.indicators;
}

/** Replaces a chart's indicators (`PUT`); answers the list as the server stored it. */
export async function saveChartIndicators(
  chartKey: string,
  indicators: readonly IndicatorConfig[],
): Promise<IndicatorConfig[]> {
  const answer = await http.put(
    path(chartKey),
    { indicators },
    {
      schema: chartIndicatorsBodySchema,
    },
  );
  return answer.indicators;
}
