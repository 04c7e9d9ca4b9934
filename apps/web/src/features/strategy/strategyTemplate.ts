import { queryClient } from '../../shared/queryClient';
import { cachedTemplate, templateQuery, useTemplateCode } from './queries';

/*
 * The strategy template code of the chart page (the built-in Default strategy's code) lives
 * in the query cache under `['strategyTemplate']`: the chart page reads it with
 * `useTemplateCode`, plain code with `cachedTemplate`.
 */
export { cachedTemplate, useTemplateCode };

/** Loads the template once; concurrent callers share the request, a failure is retried. */
export function loadStrategyTemplate(): Promise<string> {
  return queryClient.fetchQuery(templateQuery);
}
