/**
 * A connector's check before its first run (POST /v1/connectors/{id}/check), the story: the URLs of its settings pass
 * the SSRF check, it holds credentials its plugin can read, and the plugin's own `check` (through the outbound guard,
 * within the time a login may take) finds what would keep a run from reading or writing. Every problem comes back at
 * once, with what to do about it; nothing on the connector changes.
 */
import type { Logger } from '../log.js';
import { refusalIn, type OutboundPolicy } from '../net/outbound-guard.js';
import { tenantSafeText } from '../net/tenant-safe-text.js';
import type { ConnectorRow } from './connector-store.js';
import { CHECK_TIMEOUT_MS, OPEN_TIMEOUT_MS, platformGuard, within } from './platform-access.js';
import { checkPlatformUrl, UnsafeUrl } from '../net/platform-url.js';
import { ConnectorError, type Catalog, type CheckContext, type CheckProblem, type ConnectorPlugin } from './plugin.js';
import type { ConnectorRegistry } from './registry.js';
import type { SecretBox } from '../kit/secrets.js';

export interface CheckResult {
  /** No problem keeps a run from working (warnings may remain). */
  ok: boolean;
  problems: CheckProblem[];
}

export interface CheckDeps {
  registry: ConnectorRegistry;
  secrets: SecretBox;
  log: Logger;
  options: { outbound: OutboundPolicy; allowPrivate: boolean; publicBaseUrl?: string; checkTimeoutMs?: number };
}

const result = (problems: CheckProblem[]): CheckResult => ({
  ok: problems.every((p) => p.severity === 'warning'),
  // Platform text reaches a tenant here: one short plain line.
  problems: problems.map((p) => ({ ...p, message: tenantSafeText(p.message, 500) })),
});

/** What the core finds of a failure the plugin did not turn into a problem. */
function problemOf(err: unknown): CheckProblem {
  const refused = refusalIn(err);
  if (refused) {
    return {
      code: 'outbound_refused', message: `An outbound request was refused: ${refused.message}.`,
      fix: 'Every platform URL must be https on a public address (the settings, and where the platform sends us).',
    };
  }
  if (err instanceof ConnectorError && err.reason === 'auth_failed') {
    return { code: 'credentials_refused', message: err.platformMessage ?? err.message, fix: 'Give the connector working credentials (PATCH credentials).' };
  }
  const message = err instanceof ConnectorError ? err.platformMessage ?? err.message : (err as Error).message;
  return { code: 'platform_unreachable', message: `The platform did not answer the check: ${message}`, fix: 'Try the check again later.' };
}

/** The plugin's context for a connector (its credentials opened, through the guard), or the problem that keeps it from one. */
async function withPlatform<T>(
  deps: CheckDeps, connector: ConnectorRow, what: string, timeoutMs: number,
  work: (plugin: ConnectorPlugin, context: CheckContext<unknown, unknown, unknown>) => Promise<T>,
): Promise<T | CheckResult> {
  const plugin = deps.registry.get(connector.type);
  if (!plugin) throw new Error(`no plugin for connector type ${connector.type}`);
  const urls = plugin.urlsOf(connector.settings);
  for (const url of urls) {
    try {
      await checkPlatformUrl(url, deps.options.allowPrivate);
    } catch (err) {
      if (!(err instanceof UnsafeUrl)) throw err;
      return result([{ code: 'outbound_refused', message: `${url} ${err.message}.`, fix: 'Change the settings to an https URL on a public address.' }]);
    }
  }
  // An uninstalled app's token is erased; a shop's redaction erases everything.
  const credentials = plugin.credentialsSchema.safeParse(deps.secrets.open(connector.sealed));
  if (!credentials.success) {
    return result([{
      code: 'credentials_missing', message: 'The connector holds no usable credentials.',
      fix: 'Give it new credentials (PATCH /v1/connectors/{id}), or install the app again.',
    }]);
  }
  const { publicBaseUrl } = deps.options;
  const http = platformGuard(deps.options, urls);
  let gaveUp = false;
  try {
    return await within(work(plugin, {
      settings: connector.settings, credentials: credentials.data, writeBack: connector.writeBack, log: deps.log, fetch: http.fetch,
      ...(publicBaseUrl ? { webhookUrl: new URL(`/webhooks/${connector.type}`, publicBaseUrl).toString() } : {}),
    }), timeoutMs, what);
  } catch (err) {
    gaveUp = true;
    if (!refusalIn(err) && !(err instanceof ConnectorError)) deps.log.error({ err, connector_id: connector.id }, `connector ${what} failed`);
    return result([problemOf(err)]);
  } finally {
    // A graceful close would wait for the request the platform never answers.
    await (gaveUp ? http.destroy() : http.close()).catch(() => undefined);
  }
}

export async function checkConnector(deps: CheckDeps, connector: ConnectorRow): Promise<CheckResult> {
  return withPlatform(deps, connector, 'the check', checkTimeout(deps), async (plugin, context) => result(await plugin.check(context)));
}

const checkTimeout = (deps: CheckDeps) => deps.options.checkTimeoutMs ?? CHECK_TIMEOUT_MS;

/**
 * What the connector reads and writes on its platform (the plugin's `discover`: its objects and fields, present or
 * not, readable and writable by these credentials), for the check page; null when the plugin does not say, or could
 * not (the check beside it names why). Signs in as the check does, within the same time.
 */
export async function discoverConnector(deps: CheckDeps, connector: ConnectorRow): Promise<Catalog | null> {
  if (!deps.registry.get(connector.type)?.discover) return null;
  const found = await withPlatform(deps, connector, 'the discover', checkTimeout(deps), async (plugin, context) => plugin.discover!(context));
  return 'objects' in found ? found : null;
}

/** What the one-click set-up did, and the check after it (what is left, with its manual fix). */
export interface SetUpResult {
  done: string[];
  check: CheckResult;
}

/** Whether the connector's plugin can set the platform up itself (Salesforce: its fields and permission set). */
export function canSetUp(registry: ConnectorRegistry, connector: ConnectorRow): boolean {
  return typeof registry.get(connector.type)?.setUp === 'function';
}

/**
 * The one-click set-up (the dashboard's button beside a check's problems): the plugin creates on the platform what a
 * run needs and it may create (plugin.setUp), then the check runs again and tells what is left.
 */
export async function setUpConnector(deps: CheckDeps, connector: ConnectorRow): Promise<SetUpResult> {
  const done = await withPlatform(deps, connector, 'the set-up', OPEN_TIMEOUT_MS, async (plugin, context) => {
    if (!plugin.setUp) throw new ConnectorError('api_error', `${connector.type} connectors are set up by hand`);
    return plugin.setUp(context);
  });
  if (!Array.isArray(done)) return { done: [], check: done };
  return { done, check: await checkConnector(deps, connector) };
}

/** The check and the one-click set-up of connectors, bound to the core's dependencies (for the dashboard and the API). */
export class ConnectorChecks {
  constructor(private readonly deps: CheckDeps) {}

  check(connector: ConnectorRow): Promise<CheckResult> {
    return checkConnector(this.deps, connector);
  }

  setUp(connector: ConnectorRow): Promise<SetUpResult> {
    return setUpConnector(this.deps, connector);
  }

  discover(connector: ConnectorRow): Promise<Catalog | null> {
    return discoverConnector(this.deps, connector);
  }

  canSetUp(connector: ConnectorRow): boolean {
    return canSetUp(this.deps.registry, connector);
  }
}
