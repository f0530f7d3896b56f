// A compose file read line by line, for one the YAML parser refuses (compose-yaml.ts): its host paths
// and privileged settings as its lines show them, in block or flow style.

/** The most host paths named per file. */
const MAX_PATHS = 8;

/** The host path of a compose line: `- ./src:/app`, `- "/:/host"`, `source: ~/.ssh`, `file: ~/.ssh/id_rsa`. */
function hostPath(line: string): string | undefined {
  // Long-syntax mounts and local volumes; secrets' and configs' files; env files; build contexts.
  const source = /^(?:-\s+)?(?:source|device|file|env_file|context):\s*(.*)$/.exec(line);
  const short = source ? undefined : /^-\s+(.*)$/.exec(line);
  let value = (source?.[1] ?? short?.[1] ?? '').trim();
  if (value.startsWith('"') || value.startsWith("'")) value = value.slice(1).replace(/["']$/, '');
  if (short) {
    const colon = value.indexOf(':', 1);
    if (colon === -1) return undefined;
    value = value.slice(0, colon);
  }
  // A path (or a variable that is one), not a named volume, a port or an environment setting.
  return /^(?:[./~]|\$)/.test(value) && !value.includes('=') ? value : undefined;
}

/** A service in the host's process, network, IPC or user namespace (block or flow style). */
const HOST_NAMESPACE = /(?:^|[{,\s])["']?(pid|network_mode|ipc|userns_mode)["']?\s*:\s*["']?host\b/i;

/** What a compose file's text sets that reaches outside the container, line by line: host paths it mounts, privileged. */
export function composeLines(text: string): { mounts: string[]; settings: string[] } {
  const mounts: string[] = [];
  const settings = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    // Anywhere in the line: flow style (`{privileged: true, pid: host}`) says the same as block style.
    if (/(?:^|[{,\s])["']?privileged["']?\s*:\s*["']?true\b/i.test(line)) settings.add('privileged: true');
    if (/^ssh:/.test(line)) settings.add("build ssh (the host's SSH agent is lent to the build)");
    const namespace = HOST_NAMESPACE.exec(line);
    if (namespace) settings.add(`${namespace[1]}: host`);
    if (mounts.length >= 4 * MAX_PATHS) continue;
    // A flow sequence (`volumes: ["/:/host", ./src:/app]`) is read item by item.
    const flow = /(?:^|[{,\s])(volumes|env_file)\s*:\s*\[([^\]]*)/.exec(line);
    // A volume item is `host:container`; an env_file item is a path alone.
    const item = flow?.[1] === 'env_file' ? 'env_file: ' : '- ';
    const items = flow ? flow[2]!.split(',').map((i) => `${item}${i.trim()}`) : [line];
    for (const item of items.slice(0, 4 * MAX_PATHS)) {
      const host = hostPath(item);
      if (host !== undefined && !mounts.includes(host)) mounts.push(host);
    }
  }
  return { mounts, settings: [...settings] };
}
