// Re-discovery on demand: the SKILL.md watcher fires once per file (a checkout or `git pull` that adds
// hundreds fires hundreds of times) and every chat start asks too. Runs never overlap, and calls during a
// run share one more run, whose result they all get: the run in flight may have listed the folders
// before the caller's change, and an older run finishing last would otherwise overwrite a newer one.
import { discoverSkills, type DiscoveredSkills, type DiscoverSkillsOptions } from './discover';

export class SkillRefresher {
  private running: Promise<DiscoveredSkills> | undefined;
  private next: Promise<DiscoveredSkills> | undefined;

  constructor(
    private readonly options: () => DiscoverSkillsOptions,
    private readonly discover: (opts: DiscoverSkillsOptions) => Promise<DiscoveredSkills> = discoverSkills,
  ) {}

  /** The skills as found by a run that started after this call. */
  refresh(): Promise<DiscoveredSkills> {
    const inFlight = this.running;
    if (inFlight)
      return (this.next ??= inFlight
        .catch(() => undefined)
        .then(() => {
          this.next = undefined;
          return this.refresh();
        }));
    const run = this.discover(this.options()).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}
