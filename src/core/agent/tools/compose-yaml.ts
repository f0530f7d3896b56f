// What a compose file's services set that reaches outside their containers, read as compose reads it:
// as YAML, with anchors, aliases and `<<` merge keys resolved (a line-by-line look misses `*root`, a
// folded `>-` scalar, an escaped `"privil\x65ged"` key), and the other files it draws on named: the
// compose files it `include:`s and the services of other files it `extends:`. A file the parser refuses
// (broken, or an alias bomb past maxAliasCount) is read line by line (compose-lines.ts) and said to be.
import type * as Yaml from 'yaml';
import { composeLines } from './compose-lines';

/** What one compose file sets, and the other files it draws on (paths as written, from its folder). */
export interface ComposeReading {
  /** Host paths (or variables) it mounts, reads as env files or secrets, or builds from, as written. */
  mounts: string[];
  /** Settings that reach the host: `privileged: true`, `pid: host`, `cap_add: SYS_ADMIN`. */
  settings: string[];
  /** Compose files it includes; remote ones (`oci://`, `git@`) are among settings instead. */
  includes: string[];
  /** Services of other files its services extend. */
  extends: { file: string; service: string }[];
  /** Why the file was read line by line instead of as YAML. */
  notYaml?: string;
}

/** The most host paths kept from one file, and aliases expanded (yaml's guard against alias bombs). */
const MAX_MOUNTS = 32;
const MAX_ALIAS_COUNT = 100;
/** How many same-file `extends:` are followed from one service. */
const MAX_EXTENDS = 8;
const NAMESPACES = ['pid', 'network_mode', 'ipc', 'userns_mode', 'uts', 'cgroup'];
/** Capabilities that let a container reach the host (mount, trace, load modules, read any file). */
const HOST_CAPS = /^(?:CAP_)?(?:ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|SYS_RAWIO|DAC_READ_SEARCH|DAC_OVERRIDE|BPF)$/i;
/** compose's reading of a boolean: YAML 1.2's and the 1.1 words its Go parser still takes for a bool. */
const TRUE = /^(?:true|yes|on|y)$/i;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** A path (or a variable that is one), not a named volume, a port or an environment setting. */
const isHostPath = (v: string | undefined): v is string => v !== undefined && /^(?:[./~]|\$)/.test(v.trim());

/**
 * What `text` (a compose file) sets that reaches the host; with `only`, what that service sets (with
 * the services of the same file it extends), as `extends: {file, service: only}` draws on it.
 */
export function composeSettings(text: string, only?: string): ComposeReading {
  const { parseAllDocuments } = yaml();
  const out: ComposeReading = { mounts: [], settings: [], includes: [], extends: [] };
  const settings = new Set<string>();
  try {
    const docs = parseAllDocuments(text, { merge: true, uniqueKeys: false, prettyErrors: false });
    const list = Array.isArray(docs) ? docs : [];
    const error = list.flatMap((d) => d.errors)[0];
    if (error !== undefined) return lines(text, `not read as YAML: ${error.code}`);
    for (const doc of list) {
      const data: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
      if (isObj(data)) readTop(data, only, out, settings);
    }
  } catch (e) {
    return lines(text, `not read as YAML: ${e instanceof Error ? e.message.slice(0, 80) : 'unreadable'}`);
  }
  out.settings = [...settings];
  return out;
}

/** The line-by-line reading of a file the parser refuses. */
function lines(text: string, why: string): ComposeReading {
  return { ...composeLines(text), includes: [], extends: [], notYaml: why };
}

function readTop(data: Obj, only: string | undefined, out: ComposeReading, settings: Set<string>): void {
  const services = isObj(data.services) ? data.services : {};
  if (only === undefined) {
    for (const service of Object.values(services)) if (isObj(service)) readService(service, out, settings);
    // Top-level secrets and configs name host files; a local volume can bind a host folder (`device:`).
    for (const key of ['secrets', 'configs', 'volumes'])
      for (const entry of Object.values(isObj(data[key]) ? data[key] : {})) {
        if (!isObj(entry)) continue;
        addMount(out, str(entry.file));
        if (isObj(entry.driver_opts)) addMount(out, str(entry.driver_opts.device));
      }
    for (const inc of list(data.include)) {
      const paths = isObj(inc) ? list(inc.path) : [inc];
      for (const p of paths) {
        const file = str(p);
        if (file === undefined) continue;
        if (/^(?:[a-z][\w+.-]*:\/\/|oci:|git@)/i.test(file)) settings.add(`include of a remote compose file ${file}`);
        else if (out.includes.length < MAX_MOUNTS) out.includes.push(file);
      }
      if (isObj(inc)) for (const env of list(inc.env_file)) addMount(out, str(env));
    }
    return;
  }
  // One service, with those of the same file it extends (a chain, followed a few steps).
  let name: string | undefined = only;
  for (let step = 0; name !== undefined && step < MAX_EXTENDS; step++) {
    const service: unknown = services[name];
    if (!isObj(service)) break;
    readService(service, out, settings);
    const ext: unknown = service.extends;
    name = typeof ext === 'string' ? ext : isObj(ext) && ext.file === undefined ? str(ext.service) : undefined;
  }
}

function readService(s: Obj, out: ComposeReading, settings: Set<string>): void {
  if (s.privileged === true || TRUE.test(str(s.privileged) ?? '')) settings.add('privileged: true');
  for (const key of NAMESPACES) if (str(s[key])?.toLowerCase() === 'host') settings.add(`${key}: host`);
  for (const cap of list(s.cap_add)) {
    const c = str(cap);
    if (c !== undefined && HOST_CAPS.test(c)) settings.add(`cap_add: ${c}`);
  }
  for (const opt of list(s.security_opt)) {
    const o = str(opt);
    if (o !== undefined && /unconfined|disable/i.test(o)) settings.add(`security_opt: ${o}`);
  }
  for (const device of list(s.devices)) {
    const d = isObj(device) ? str(device.source) : str(device)?.split(':')[0];
    if (d !== undefined) settings.add(`devices: ${d}`);
  }
  for (const v of list(s.volumes)) {
    if (isObj(v)) addMount(out, str(v.source));
    else {
      const text = str(v);
      const colon = text?.indexOf(':', 1) ?? -1;
      if (text !== undefined && colon !== -1) addMount(out, text.slice(0, colon));
    }
  }
  const build = s.build;
  if (typeof build === 'string') addMount(out, build);
  else if (isObj(build)) {
    addMount(out, str(build.context));
    if (build.ssh !== undefined) settings.add("build ssh (the host's SSH agent is lent to the build)");
    const contexts = isObj(build.additional_contexts)
      ? Object.values(build.additional_contexts)
      : list(build.additional_contexts).map((c) => str(c)?.replace(/^[^=]*=/, ''));
    for (const c of contexts) addMount(out, str(c));
  }
  for (const env of [...list(s.env_file), ...list(s.label_file)]) addMount(out, isObj(env) ? str(env.path) : str(env));
  const ext = s.extends;
  if (isObj(ext) && typeof ext.file === 'string' && typeof ext.service === 'string')
    out.extends.push({ file: ext.file, service: ext.service });
}

function addMount(out: ComposeReading, value: string | undefined): void {
  if (!isHostPath(value) || value.includes('=')) return;
  const v = value.trim();
  if (out.mounts.length < MAX_MOUNTS && !out.mounts.includes(v)) out.mounts.push(v);
}

/**
 * The YAML parser, evaluated on first use: a session that never approves a compose command does not
 * pay for it (test/unit/bundle-laziness.test.ts).
 */
function yaml(): typeof Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, on purpose
  return require('yaml') as typeof Yaml;
}
