/**
 * Connectors (docs/connectors.md), the story of their configuration: a body checked against the plugin's own settings,
 * credentials and write-back schemas (zod), every URL it will call checked against SSRF, the credentials sealed and
 * never shown again; read, changed, paused and deleted by their account only.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { isCronExpression, nextCronTime } from '../bulk/schedules.js';
import type { PageQuery } from '../db/pages.js';
import type { ConnectorRow, ConnectorStore, RunRow } from './connector-store.js';
import type { ConnectorRegistry } from './registry.js';
import { checkPlatformUrl, UnsafeUrl } from '../net/platform-url.js';
import type { SecretBox } from '../kit/secrets.js';
import type { CreditCaps } from './credit-caps.js';
import { POLICY_NAME, PRESET_NAMES } from '../contact-check/policies.js';
import { unknownPolicyMessage, type PolicyStore } from '../contact-check/policy-store.js';

/** A field problem in a connector body: answered 400 with `errors`, like any schema failure. */
export class ConnectorInvalid extends Error {
  constructor(readonly errors: { field: string; message: string }[]) {
    super(errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  }
}

/**
 * The platform account (a Shopify shop) has a connector already: one shop, one connector, so that a webhook delivery
 * costs one signature check. `connectorId` is named only when that connector is the asking account's own.
 */
export class PlatformAccountTaken extends Error {
  constructor(readonly connectorId: string | null) {
    super(connectorId
      ? `Connector ${connectorId} of this account already connects this shop: change that one instead.`
      : 'Another connector already connects this shop. Its account must disconnect it first; if that connector can no ' +
        "longer reach the shop (the app was uninstalled, or the shop refuses its token), installing the app " +
        '(POST /v1/connectors/{type}/install) moves the shop to this account.');
  }
}

/**
 * An install for a shop whose connector belongs to another account and still reaches the shop: nothing is changed.
 * A click never moves a shop; its current account lets it go first (it disconnects the connector).
 */
export class ShopConnectedElsewhere extends Error {
  constructor() {
    super('This shop is connected to another account of this service, and nothing was changed. To move it here, ' +
      "someone of that account disconnects the shop's connector first (Connectors, or DELETE /v1/connectors/{id}); " +
      'then install the app again.');
  }
}

/** What an install brings beside its body: the code's exchange, and a way to ask whether the shop's current connector still reaches it. */
export interface InstallAccess {
  /** The platform's credentials for the installing account: called only once the install may go on. */
  credentials(): Promise<Record<string, unknown>>;
  /** Whether these credentials (the shop's connector of another account) still reach the shop. */
  holderReaches(credentials: Record<string, unknown>): Promise<boolean>;
}

const schedule = z.string().trim().max(100).refine(isCronExpression, 'a cron expression (5 fields, or 6 with seconds)');

/** At most this many credits a calendar month (UTC) for the connector's records; null: no cap (credit-caps.ts). */
const creditCap = z.int().min(1).max(1_000_000_000).nullable()
  .describe('Credits the connector may take each calendar month (UTC); reached, it pauses (`credit_cap_reached`) and the owner is mailed');

/** The policy the connector's answers follow (src/contact-check/policies.ts), by name; null: the fixed table. */
const policy = z.string().regex(POLICY_NAME, 'a policy name: a preset or one of GET /v1/policies').nullable()
  .describe("The policy every answer's `next_action` follows, and so what is written on the platform: a preset (`default`, `signup`, `checkout`, `crm_cleanup`) or one of the account's (GET /v1/policies); null: the fixed table (docs/api.md#next_action)");

export const createSchema = z.object({
  type: z.string(),
  name: z.string().trim().min(1).max(200),
  schedule: schedule.default('*/15 * * * *'),
  settings: z.record(z.string(), z.unknown()).default({}),
  credentials: z.record(z.string(), z.unknown()),
  write_back: z.record(z.string(), z.unknown()).default({}),
  credit_cap_monthly: creditCap.optional(),
  policy: policy.optional(),
}).strict();

export const patchSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  status: z.enum(['active', 'paused']).optional(),
  schedule: schedule.optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  credentials: z.record(z.string(), z.unknown()).optional(),
  write_back: z.record(z.string(), z.unknown()).optional(),
  credit_cap_monthly: creditCap.optional(),
  policy: policy.optional(),
}).strict();

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function runView(run: RunRow) {
  return {
    run_id: run.id, status: run.status, reason: run.reason, message: run.message, triggered_by: run.triggeredBy,
    started_at: iso(run.startedAt), finished_at: iso(run.finishedAt),
    records_read: run.records_read, records_validated: run.records_validated, records_written: run.records_written,
    records_skipped: run.records_skipped, records_failed: run.records_failed, credits_charged: run.credits_charged,
    errors: run.errors,
  };
}

function issuesOf(prefix: string, error: z.ZodError) {
  return error.issues.map((i) => ({ field: [prefix, ...i.path].filter((p) => p !== '').join('.') || '(body)', message: i.message }));
}

/**
 * A real-time connector's change stream as an admin sees it: `stopped` while the connector is not active (no instance
 * listens), `starting` until an instance has subscribed, then what that instance last said (`listening`, or
 * `dropped` with the platform's reason while a catch-up run reads what was missed and the stream is taken again).
 */
function realtimeView(c: ConnectorRow): { status: 'listening' | 'dropped' | 'starting' | 'stopped'; detail: string | null } {
  if (c.status !== 'active') return { status: 'stopped', detail: null };
  return { status: c.stream.status ?? 'starting', detail: c.stream.status === 'dropped' ? c.stream.detail : null };
}

export class Connectors {
  constructor(
    private readonly store: ConnectorStore,
    private readonly registry: ConnectorRegistry,
    private readonly secrets: SecretBox,
    private readonly allowPrivate: boolean,
    private readonly policies: Pick<PolicyStore, 'rulesNamed' | 'list'>,
    private readonly caps?: CreditCaps,
  ) {}

  async view(c: ConnectorRow) {
    const lastRun = c.lastRunId ? await this.store.getRun(c.lastRunId) : null;
    const cap = (await this.caps?.state(c)) ?? { cap: null, spent: 0 };
    return {
      connector_id: c.id, type: c.type, name: c.name, status: c.status, reason: c.reason, reason_detail: c.reasonDetail,
      schedule: c.schedule, settings: c.settings, write_back: c.writeBack, policy: c.policy, watermark: c.watermark,
      credit_cap_monthly: cap.cap, credits_this_month: cap.spent,
      last_run: lastRun ? runView(lastRun) : null, created_at: iso(c.createdAt), updated_at: iso(c.updatedAt),
      realtime: c.settings.realtime === true ? realtimeView(c) : null,
    };
  }

  private pluginFor(type: string) {
    const plugin = this.registry.get(type);
    if (!plugin) throw new ConnectorInvalid([{ field: 'type', message: `one of ${this.registry.types.join(', ')}` }]);
    return plugin;
  }

  /** A policy a body names, refused when the account has none so named (a preset's name, or one of its own). */
  private async checkedPolicy(accountId: string, name: string | null | undefined): Promise<void> {
    if (name && !(await this.policies.rulesNamed(accountId, name))) {
      throw new ConnectorInvalid([{ field: 'policy', message: unknownPolicyMessage(name) }]);
    }
  }

  /** The names a connector's policy may take in this account: the presets, then the account's own. */
  async policyNames(accountId: string): Promise<string[]> {
    return [...PRESET_NAMES, ...(await this.policies.list(accountId)).map((p) => p.name)];
  }

  /** The plugin's parse of settings, credentials and write-back, and the SSRF check of its URLs. */
  private async checked(type: string, raw: { settings: unknown; credentials?: unknown; write_back: unknown }) {
    const plugin = this.pluginFor(type);
    const settings = plugin.settingsSchema.safeParse(raw.settings);
    const writeBack = plugin.writeBackSchema.safeParse(raw.write_back);
    const credentials = raw.credentials === undefined ? null : plugin.credentialsSchema.safeParse(raw.credentials);
    const errors = [
      ...(settings.success ? [] : issuesOf('settings', settings.error)),
      ...(writeBack.success ? [] : issuesOf('write_back', writeBack.error)),
      // Never echo a credential's value: only which field is wrong.
      ...(credentials && !credentials.success ? issuesOf('credentials', credentials.error).map((e) => ({ ...e, message: e.message.slice(0, 200) })) : []),
    ];
    if (errors.length) throw new ConnectorInvalid(errors);
    for (const url of plugin.urlsOf(settings.data)) {
      try {
        await checkPlatformUrl(url, this.allowPrivate);
      } catch (err) {
        if (err instanceof UnsafeUrl) throw new ConnectorInvalid([{ field: 'settings', message: `${url.slice(0, 200)} ${err.message}` }]);
        throw err;
      }
    }
    return {
      settings: settings.data as Record<string, unknown>,
      writeBack: writeBack.data as Record<string, unknown>,
      credentials: credentials?.data ?? null,
    };
  }

  async create(accountId: string, body: unknown) {
    const parsed = createSchema.safeParse(body);
    if (!parsed.success) throw new ConnectorInvalid(issuesOf('', parsed.error));
    const { type, name } = parsed.data;
    await this.checkedPolicy(accountId, parsed.data.policy);
    const checked = await this.checked(type, { settings: parsed.data.settings, credentials: parsed.data.credentials, write_back: parsed.data.write_back });
    const id = `conn_${crypto.randomBytes(12).toString('base64url')}`;
    const platformKey = this.platformKeyOf(type, checked.settings);
    await this.refuseTaken(accountId, id, type, platformKey);
    await this.store.insert({
      id, accountId, type, name, status: 'active', schedule: parsed.data.schedule, nextRunAt: nextCronTime(parsed.data.schedule, Date.now()),
      settings: checked.settings,
      writeBack: checked.writeBack, policy: parsed.data.policy ?? null, sealed: this.secrets.seal(checked.credentials),
    }, platformKey).catch((err: unknown) => this.takenMeanwhile(err, accountId, id, type, platformKey));
    if (parsed.data.credit_cap_monthly) await this.caps?.setCap(id, parsed.data.credit_cap_monthly);
    return this.view((await this.store.get(id))!);
  }

  /**
   * The app's OAuth install, by a signed-in person of the account (connectors/shopify/install.ts). The account's own
   * connector of the shop takes the new credentials and resumes. Another account's connector that still reaches the
   * shop keeps it: the install is refused before the code is exchanged (`ShopConnectedElsewhere`), since a shop is
   * never moved by a click. One that no longer reaches it (the app uninstalled and its token erased, or a token the shop
   * refuses: a squatter's) lets the shop go, paused with `shop_claimed` and its dead credentials erased.
   */
  async connectByInstall(
    accountId: string, body: { type: string; name: string; schedule?: string; settings: Record<string, unknown> }, access: InstallAccess,
  ) {
    const settings = this.pluginFor(body.type).settingsSchema.safeParse(body.settings);
    const platformKey = settings.success ? this.platformKeyOf(body.type, settings.data as Record<string, unknown>) : null;
    const holder = platformKey ? await this.store.byPlatformKey(body.type, platformKey) : null;
    if (holder && holder.accountId !== accountId && await this.reaches(holder, access)) throw new ShopConnectedElsewhere();
    const credentials = await access.credentials();
    if (holder?.accountId === accountId) {
      return this.update(holder, { settings: body.settings, credentials, status: 'active' });
    }
    if (holder) {
      await this.store.setPlatformKey(holder.id, null);
      await this.store.update(holder.id, {
        status: 'paused', reason: 'shop_claimed', sealed: this.secrets.seal({}),
        reasonDetail: "the shop's owner installed the app from another account while this connector could no longer reach the shop; its credentials are erased",
      });
    }
    return this.create(accountId, { ...body, credentials });
  }

  /** Whether another account's connector still reaches its shop; credentials this service cannot open count as reaching (refused, never moved). */
  private async reaches(holder: ConnectorRow, access: InstallAccess): Promise<boolean> {
    let credentials: Record<string, unknown>;
    try {
      credentials = this.secrets.open<Record<string, unknown>>(holder.sealed) ?? {};
    } catch {
      return true;
    }
    return access.holderReaches(credentials);
  }

  private platformKeyOf(type: string, settings: Record<string, unknown>): string | null {
    return this.pluginFor(type).platformKeyOf?.(settings as never) ?? null;
  }

  /** Refused when another connector holds the platform account. */
  private async refuseTaken(accountId: string, id: string, type: string, platformKey: string | null): Promise<void> {
    const holder = platformKey ? await this.store.byPlatformKey(type, platformKey) : null;
    if (holder && holder.id !== id) throw new PlatformAccountTaken(holder.accountId === accountId ? holder.id : null);
  }

  /** A write refused by the unique index (two at once): the same refusal as the check before it. */
  private async takenMeanwhile(err: unknown, accountId: string, id: string, type: string, platformKey: string | null): Promise<never> {
    await this.refuseTaken(accountId, id, type, platformKey);
    throw err;
  }

  async get(accountId: string, id: string): Promise<ConnectorRow | null> {
    return this.store.getOwn(accountId, id);
  }

  async list(accountId: string) {
    return Promise.all((await this.store.list(accountId)).map((c) => this.view(c)));
  }

  async update(connector: ConnectorRow, body: unknown) {
    const parsed = patchSchema.safeParse(body);
    if (!parsed.success) throw new ConnectorInvalid(issuesOf('', parsed.error));
    const p = parsed.data;
    await this.checkedPolicy(connector.accountId, p.policy);
    const checked = await this.checked(connector.type, {
      settings: p.settings ?? connector.settings, credentials: p.credentials, write_back: p.write_back ?? connector.writeBack,
    });
    // New settings, or a resume, take the shop again: refused while another connector holds it.
    if (p.settings || p.status === 'active') {
      const platformKey = this.platformKeyOf(connector.type, checked.settings);
      await this.refuseTaken(connector.accountId, connector.id, connector.type, platformKey);
      await this.store.setPlatformKey(connector.id, platformKey)
        .catch((err: unknown) => this.takenMeanwhile(err, connector.accountId, connector.id, connector.type, platformKey));
    }
    await this.store.update(connector.id, {
      name: p.name,
      schedule: p.schedule,
      nextRunAt: p.schedule === undefined ? undefined : nextCronTime(p.schedule, Date.now()),
      settings: p.settings ? checked.settings : undefined,
      writeBack: p.write_back ? checked.writeBack : undefined,
      policy: p.policy,
      sealed: checked.credentials ? this.secrets.seal(checked.credentials) : undefined,
      // Resuming (or new credentials) clears the reason of a pause or an error.
      ...(p.status ? { status: p.status, reason: null, reasonDetail: null } : {}),
      ...(p.credentials && connector.status === 'error' && !p.status ? { status: 'active', reason: null, reasonDetail: null } : {}),
      // A new cap (or none) lets a connector paused by the old one go on; the next run finds it reached again if it is.
      ...(p.credit_cap_monthly !== undefined && connector.reason === 'credit_cap_reached' && !p.status ? { status: 'active', reason: null, reasonDetail: null } : {}),
    });
    if (p.credit_cap_monthly !== undefined) await this.caps?.setCap(connector.id, p.credit_cap_monthly);
    return this.view((await this.store.get(connector.id))!);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return this.store.delete(accountId, id);
  }

  /** A connector's runs, newest first, a page at a time (docs/api.md#lists). */
  async runs(connectorId: string, page: PageQuery = { limit: 50 }) {
    const found = await this.store.runs(connectorId, page);
    return { items: found.items.map(runView), hasMore: found.hasMore };
  }
}
