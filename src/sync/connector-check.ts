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
import { OPEN_TIMEOUT_MS, platformGuard, within } from './platform-access.js';
import { checkPlatformUrl, UnsafeUrl } from './platform-url.js';
import { ConnectorError, type CheckProblem } from './plugin.js';
import type { ConnectorRegistry } from './registry.js';
import type { SecretBox } from './secrets.js';

export interface CheckResult {
  ok: boolean;
  problems: CheckProblem[];
}

export interface CheckDeps {
  registry: ConnectorRegistry;
  secrets: SecretBox;
  log: Logger;
  options: { outbound: OutboundPolicy; allowPrivate: boolean; publicBaseUrl?: string };
}

const result = (problems: CheckProblem[]): CheckResult => ({
  ok: problems.length === 0,
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

export async function checkConnector(deps: CheckDeps, connector: ConnectorRow): Promise<CheckResult> {
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
  try {
    const problems = await within(plugin.check({
      settings: connector.settings, credentials: credentials.data, writeBack: connector.writeBack, log: deps.log, fetch: http.fetch,
      ...(publicBaseUrl ? { webhookUrl: new URL(`/webhooks/${connector.type}`, publicBaseUrl).toString() } : {}),
    }), OPEN_TIMEOUT_MS, 'the check');
    return result(problems);
  } catch (err) {
    if (!refusalIn(err) && !(err instanceof ConnectorError)) deps.log.error({ err, connector_id: connector.id }, 'connector check failed');
    return result([problemOf(err)]);
  } finally {
    await http.close().catch(() => undefined);
  }
}
