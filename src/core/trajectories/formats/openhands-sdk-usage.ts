// OpenHands SDK (V1) usage: Metrics keep one `token_usages` record per model call, keyed by the
// response id that the call's events carry as `llm_response_id`, and the money per LLM in
// `accumulated_cost`. A conversation keeps one Metrics per LLM (agent, condenser) in base_state.json.
import { BAD_COUNT, isObject, optionalCount, optionalNumber, type JsonObject } from '../json';
import type { RecordedUsage } from '../types';

export interface SdkUsage {
  /** The provider's usage per model response, by response id (ids recorded twice are left out). */
  byResponse: Map<string, RecordedUsage>;
  /** Money recorded for the whole conversation (every LLM it used: agent, condenser, ...). */
  cost?: number;
  /** Usage records that could not be attributed: their count and why. */
  unusable: { duplicate: number; convention: number };
}

/** Usage from Metrics objects (`token_usages` with `response_id`, `accumulated_cost`). */
export function usageFromMetrics(metrics: readonly unknown[]): SdkUsage {
  const byResponse = new Map<string, RecordedUsage>();
  const seen = new Set<string>();
  const unusable = { duplicate: 0, convention: 0 };
  let cost: number | undefined;
  for (const m of metrics) {
    if (!isObject(m)) continue;
    const c = optionalNumber(m.accumulated_cost);
    if (c !== undefined) cost = (cost ?? 0) + c;
    for (const u of Array.isArray(m.token_usages) ? m.token_usages : []) {
      if (!isObject(u) || typeof u.response_id !== 'string' || u.response_id === '') continue;
      const id = u.response_id;
      if (seen.has(id)) {
        // One id for several records (an ACP session's id for all its turns): no record is this call's.
        if (byResponse.delete(id)) unusable.duplicate++;
        unusable.duplicate++;
        continue;
      }
      seen.add(id);
      const [prompt, read, write, out] = [
        u.prompt_tokens,
        u.cache_read_tokens,
        u.cache_write_tokens,
        u.completion_tokens,
      ].map(optionalCount);
      const cached = typeof read === 'number' ? read : 0;
      const written = typeof write === 'number' ? write : 0;
      // LiteLLM counts cache reads and writes inside the prompt; a record where they exceed it follows
      // another convention (ACP agents report them beside it) and would make a wrong prompt size, and so
      // would a figure that is not a token count.
      if (
        typeof prompt !== 'number' ||
        prompt === 0 ||
        cached + written > prompt ||
        [read, write, out].includes(BAD_COUNT)
      ) {
        unusable.convention++;
        continue;
      }
      const r: RecordedUsage = { inputTokens: prompt, cachedTokens: cached, cacheWriteTokens: written };
      if (typeof out === 'number') r.outputTokens = out;
      byResponse.set(id, r);
    }
  }
  return { byResponse, unusable, ...(cost !== undefined ? { cost } : {}) };
}

/** Usage from a conversation's base_state.json: one Metrics per LLM in `stats.usage_to_metrics`. */
export function usageFromState(state: JsonObject): SdkUsage {
  const stats = isObject(state.stats) ? state.stats : undefined;
  const byLlm = stats && isObject(stats.usage_to_metrics) ? stats.usage_to_metrics : {};
  return usageFromMetrics(Object.values(byLlm));
}
