/**
 * How a person connects a platform, for every plugin that declares `connect` (src/sync/plugin.ts): a form read through
 * its fields' targets into a connector's draft; an OAuth 2.0 authorization-code flow (RFC 6749 §4.1, PKCE RFC 7636);
 * an app installed from the platform's side. The story of an OAuth flow:
 * 1. A signed-in person sends the form. A state nonce and a PKCE verifier are made; they, the draft and the person's
 *    session are sealed (AES-GCM, the connectors' key) into a short-lived cookie (the routes set it HttpOnly on
 *    `/connectors/{type}`), and the browser goes to the plugin's authorize URL with the state and the challenge. The
 *    plugin refuses a bad form (a login host that is not the platform's: never an open redirect).
 * 2. The platform sends the browser back with a code and the state. The cookie is opened; the state must be its nonce
 *    and the session the same person's (CSRF: a callback from another browser or session is refused); the nonce is
 *    used once (remembered in the database, for the fleet, until the flow expires: a replay is refused before any code
 *    is exchanged); then the plugin exchanges the code, with the verifier, through the outbound guard.
 * 3. The connector is created from the draft and the credentials, sealed like every connector's.
 */
import crypto from 'node:crypto';
import { createGuardedHttp } from '../net/outbound-guard.js';
import type { Connectors } from './connectors.js';
import { checkPlatformUrl, UnsafeUrl } from '../net/platform-url.js';
import {
  ConnectRefused, type AppInstallConnect, type ConnectMethod, type ConnectorDraft, type ConnectorPlugin, type ConnectPerson,
  type FormField, type InstallContext, type InstallRequest, type OAuthConnect,
} from './plugin.js';
import type { ConnectorRegistry } from './registry.js';
import type { SecretBox } from '../kit/secrets.js';

/** The flows' nonces already used (src/sync/flow-nonces.ts): true the first time only. */
export interface FlowNonceBook {
  useOnce(purpose: string, nonce: string, expiresAt: number): Promise<boolean>;
}

/** The cookie of an OAuth flow (on `/connectors/{type}`): one flow at a time per browser and platform. */
export const CONNECT_COOKIE = 'cv_connect';
export const FLOW_TTL_MS = 10 * 60_000;

/** What the cookie carries from the form to the callback, sealed. */
interface Flow {
  type: string;
  method: string;
  nonce: string;
  verifier?: string;
  session: string;
  account: string;
  expires: number;
  draft: ConnectorDraft;
  carry: Record<string, unknown>;
  /** The origin the code is exchanged at: allowed on loopback under CONNECTOR_ALLOW_PRIVATE (tests' stand-ins). */
  tokenOrigin: string;
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const list = (v: unknown) => ([] as unknown[]).concat(v ?? []).filter((x): x is string => typeof x === 'string');

/** `a.b` set to `value` in `into` (`settings.shop`, `flow.environment`). */
function place(into: Record<string, Record<string, unknown>>, target: string, value: unknown): void {
  const [part, ...rest] = target.split('.');
  (into[part] ??= {})[rest.join('.')] = value;
}

/** A form's values read through its fields' targets: the connector's draft, and the flow's own values. */
export function readForm(fields: FormField[], body: Record<string, unknown>): { draft: ConnectorDraft; flow: Record<string, unknown> } {
  const parts: Record<string, Record<string, unknown>> = {};
  for (const f of fields) {
    const raw = body[f.name];
    if (f.kind === 'checkbox') {
      place(parts, f.target, raw === undefined ? f.initial === true : list(raw).includes('true'));
    } else if (f.kind === 'multi') {
      const allowed = new Set((f.choices ?? []).map((c) => c.value));
      const chosen = list(raw).filter((v) => allowed.has(v));
      if (chosen.length) place(parts, f.target, chosen);
      else if (Array.isArray(f.initial)) place(parts, f.target, f.initial);
    } else if (f.kind === 'radio' || f.kind === 'select') {
      const value = text(raw) || (typeof f.initial === 'string' ? f.initial : '');
      const choice = (f.choices ?? []).find((c) => c.value === value);
      if (!choice) continue;
      place(parts, f.target, choice.value);
      for (const [target, v] of Object.entries(choice.sets ?? {})) place(parts, target, v);
    } else {
      const value = f.lowercase ? text(raw).toLowerCase() : text(raw);
      if (value) place(parts, f.target, value);
    }
  }
  return {
    draft: {
      settings: parts.settings ?? {},
      ...(parts.credentials ? { credentials: parts.credentials } : {}),
      ...(parts.write_back ? { write_back: parts.write_back } : {}),
    },
    flow: parts.flow ?? {},
  };
}

/** The values of a refused form to show again: never a secret. */
export function echoOf(fields: FormField[], body: Record<string, unknown>): Record<string, string> {
  const secrets = new Set(fields.filter((f) => f.kind === 'secret').map((f) => f.name));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === '_csrf' || secrets.has(k)) continue;
    out[k] = list(v).join(',');
  }
  return out;
}

/** The name and schedule every form carries beside its fields (the core's own). */
export interface FormBasics { name: string; schedule: string }

export class ConnectFlows {
  constructor(
    private readonly registry: ConnectorRegistry,
    /** Null in a flow's unit tests: `exchange` gives the draft, and nothing is created. */
    private readonly connectors: Connectors | null,
    private readonly secrets: SecretBox,
    private readonly usedNonces: FlowNonceBook,
    /** CONNECTOR_ALLOW_PRIVATE (tests): a stand-in of the platform on loopback. */
    private readonly allowPrivate: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every plugin's ways to connect, in the registry's order (the dashboard's forms). */
  offers(): { plugin: ConnectorPlugin; method: ConnectMethod }[] {
    return this.registry.all().flatMap((plugin) => (plugin.connect ?? []).map((method) => ({ plugin, method })));
  }

  /** A plugin's way to connect by id, or its first of `kind` when no id is given. */
  method<K extends ConnectMethod['kind']>(type: string, id: string | undefined, kind?: K): Extract<ConnectMethod, { kind: K }> | null {
    const methods = this.registry.get(type)?.connect ?? [];
    const found = id ? methods.find((m) => m.id === id) : methods.find((m) => !kind || m.kind === kind);
    return found && (!kind || found.kind === kind) ? found as Extract<ConnectMethod, { kind: K }> : null;
  }

  private draftOf(method: ConnectMethod, basics: FormBasics, body: Record<string, unknown>) {
    const { draft, flow } = readForm(method.fields, body);
    return { draft: { ...draft, name: basics.name, schedule: basics.schedule }, flow };
  }

  /** A `form` method: the connector created from the form. */
  async submit(accountId: string, type: string, method: ConnectMethod, basics: FormBasics, body: Record<string, unknown>) {
    const { draft } = this.draftOf(method, basics, body);
    return this.connectorsOrFail().create(accountId, { type, ...draft, credentials: draft.credentials ?? {} });
  }

  private connectorsOrFail(): Connectors {
    if (!this.connectors) throw new Error('no connectors to create: a flow under test');
    return this.connectors;
  }

  /** Step 1 of an OAuth method: where to send the browser, and the sealed cookie that carries the flow to the callback. */
  async start(
    who: ConnectPerson, type: string, method: OAuthConnect, basics: FormBasics, body: Record<string, unknown>, baseUrl: string,
  ): Promise<{ location: string; cookie: string }> {
    const unavailable = method.unavailable();
    if (unavailable) throw new ConnectRefused(unavailable);
    const { draft, flow: flowValues } = this.draftOf(method, basics, body);
    const nonce = crypto.randomBytes(32).toString('base64url');
    const pkce = method.pkce !== false;
    const verifier = pkce ? crypto.randomBytes(48).toString('base64url') : undefined;
    const { location, carry = {}, tokenOrigin } = await method.authorize({
      redirectUri: callbackUrl(type, baseUrl), state: nonce, draft, flow: flowValues, allowPrivate: this.allowPrivate,
      ...(verifier ? { codeChallenge: crypto.createHash('sha256').update(verifier).digest('base64url') } : {}),
    });
    await this.checkTokenOrigin(tokenOrigin);
    const flow: Flow = {
      type, method: method.id, nonce, ...(verifier ? { verifier } : {}), session: who.sessionHash, account: who.accountId,
      expires: this.now() + FLOW_TTL_MS, draft, carry, tokenOrigin,
    };
    const sealed = this.secrets.seal(flow);
    return { location, cookie: `${sealed.keyId}.${sealed.secret}` };
  }

  private async checkTokenOrigin(origin: string): Promise<void> {
    try {
      await checkPlatformUrl(origin, this.allowPrivate);
    } catch (err) {
      if (err instanceof UnsafeUrl) throw new ConnectRefused(`The platform's address ${err.message}.`);
      throw err;
    }
  }

  /**
   * Step 2: the callback checked against the cookie and the session, the nonce used once, and the code exchanged:
   * the connector's draft with its credentials (not created: `finish` creates it).
   */
  async exchange(type: string, query: Record<string, string>, cookie: string | undefined, who: ConnectPerson, baseUrl: string) {
    const flow = this.open(cookie);
    if (!flow || flow.type !== type || !query.state || !same(query.state, flow.nonce)) {
      throw new ConnectRefused('This answer from the platform does not match the connection this browser started: start again.');
    }
    if (flow.session !== who.sessionHash || flow.account !== who.accountId) throw new ConnectRefused('The connection was started in another session: start again.');
    if (flow.expires < this.now()) throw new ConnectRefused('The connection took too long: start again.');
    if (!(await this.usedNonces.useOnce(`${type}-connect`, flow.nonce, flow.expires))) {
      throw new ConnectRefused('This answer from the platform was already used: the connection it started is made or refused already. Start again to connect another.');
    }
    const method = this.method(type, flow.method, 'oauth');
    if (!method) throw new ConnectRefused('This way to connect is no longer offered: start again.');
    if (query.error) throw new ConnectRefused(`The platform did not give access (${query.error_description || query.error}).`);
    if (!query.code) throw new ConnectRefused('The platform sent no authorization code: start again.');
    const guard = createGuardedHttp({ privateOrigins: this.allowPrivate ? [flow.tokenOrigin] : [] });
    try {
      const { credentials, settings } = await method.exchange({
        code: query.code, ...(flow.verifier ? { codeVerifier: flow.verifier } : {}), redirectUri: callbackUrl(type, baseUrl),
        carried: flow.carry, draft: flow.draft, fetch: guard.fetch, allowPrivate: this.allowPrivate,
      });
      return { ...flow.draft, settings: { ...flow.draft.settings, ...settings }, credentials };
    } finally {
      await guard.close();
    }
  }

  /** Steps 2 and 3: the callback checked, the code exchanged, and the connector created. */
  async finish(type: string, query: Record<string, string>, cookie: string | undefined, who: ConnectPerson, baseUrl: string) {
    const draft = await this.exchange(type, query, cookie, who, baseUrl);
    return this.connectorsOrFail().create(who.accountId, { type, ...draft });
  }

  private open(cookie: string | undefined): Flow | null {
    const [keyId, secret] = (cookie ?? '').split('.');
    if (!keyId || !secret) return null;
    try {
      return this.secrets.open<Flow>({ keyId, secret });
    } catch {
      return null;
    }
  }

  /** An install's context for the person in the browser: the core's connect, which never moves a held account on a guess. */
  installContext(type: string, who: ConnectPerson | null): InstallContext {
    return {
      who,
      connect: (accountId, draft, how) => this.connectorsOrFail().connectByInstall(accountId, { type, ...draft }, how),
    };
  }

  /** An install method's steps, by type: its link, its authorize step and its callback. */
  install(type: string): AppInstallConnect | null {
    return this.method(type, undefined, 'install');
  }

  /** The install step 2 and 3 for a request, with the person in the browser. */
  authorizeInstall(type: string, method: AppInstallConnect, request: InstallRequest, who: ConnectPerson | null) {
    return method.authorize(request, this.installContext(type, who));
  }

  callbackInstall(type: string, method: AppInstallConnect, request: InstallRequest, who: ConnectPerson | null) {
    return method.callback(request, this.installContext(type, who));
  }
}

/** This service's OAuth callback for a platform, as the platform's app lists it. */
export function callbackUrl(type: string, baseUrl: string): string {
  return new URL(`/connectors/${type}/callback`, baseUrl).toString();
}
