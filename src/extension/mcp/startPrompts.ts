// Which waiting servers a start prompt names, and what its Start allows: each waiting definition is
// asked about once per window (again after an explicit refresh), and Start allows exactly the
// definitions that prompt showed, never a server answered Not Now earlier nor one redefined (another
// branch checked out) while the prompt was open.
import type { McpServerConfig } from '../../core/mcp/types';

export class StartPrompts {
  /** Consent keys of the definitions already asked about. */
  private readonly asked = new Set<string>();

  constructor(
    /** Shows one prompt for these servers; true when the user chose Start in it. */
    private readonly ask: (configs: readonly McpServerConfig[]) => PromiseLike<boolean>,
    /** Allows exactly these definitions and syncs again. */
    private readonly start: (configs: readonly McpServerConfig[]) => Promise<unknown>,
  ) {}

  /** Asks about the waiting definitions not asked about yet; never awaited by the sync. */
  offer(waiting: ReadonlyMap<string, McpServerConfig>): void {
    const fresh = [...waiting].filter(([key]) => !this.asked.has(key));
    if (fresh.length === 0) return;
    for (const [key] of fresh) this.asked.add(key);
    const shown = fresh.map(([, c]) => c);
    void Promise.resolve(this.ask(shown)).then((start) => {
      if (start) void this.start(shown);
    });
  }

  /** An explicit refresh asks about every waiting server again. */
  forget(): void {
    this.asked.clear();
  }
}
