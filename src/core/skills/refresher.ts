// Re-discovery on demand: the SKILL.md watcher fires once per file (a checkout or `git pull` that adds
// hundreds fires hundreds of times) and every chat start asks too. Runs never overlap (CoalescedRuns).
import { CoalescedRuns } from '../coalesced-runs';
import { discoverSkills, type DiscoveredSkills, type DiscoverSkillsOptions } from './discover';

export class SkillRefresher {
  private readonly runs: CoalescedRuns<DiscoveredSkills>;

  constructor(
    options: () => DiscoverSkillsOptions,
    discover: (opts: DiscoverSkillsOptions) => Promise<DiscoveredSkills> = discoverSkills,
  ) {
    this.runs = new CoalescedRuns(() => discover(options()));
  }

  /** The skills as found by a run that started after this call. */
  refresh(): Promise<DiscoveredSkills> {
    return this.runs.run();
  }
}
