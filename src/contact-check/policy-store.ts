/**
 * An account's own policies (/v1/policies, docs/api.md#policies): named rules kept whole, laid over the preset they
 * start from when made, so that what a policy does is what it shows and a later version's presets never change it.
 * Every read and write is scoped to the account: another account's policy is never found. A policy is found by name
 * (what `?policy=` and a key's or connector's default name), and names are the account's own: a preset's name is never
 * one of them.
 */
import { newId } from '../billing/api-keys.js';
import type { Database } from '../db/data-source.js';
import { isPresetName, PRESET_NAMES, PRESETS, rulesWith, type PolicyRules, type PolicyRulesInput, type PresetName } from './policies.js';

export interface StoredPolicy {
  policy_id: string;
  name: string;
  /** The preset it was made from. */
  base: PresetName;
  rules: PolicyRules;
  created_at: string;
  updated_at: string;
}

interface Row {
  id: string; name: string; base: string; rules: string; created_at: number | string; updated_at: number | string;
}

/** Why a policy cannot be made or changed, in the use case's words (the HTTP layer makes each a problem). */
export class PolicyRefused extends Error {
  constructor(readonly reason: 'name_taken' | 'preset_name' | 'in_use' | 'too_many', message: string) {
    super(message);
  }
}

/** Why a name is no policy of the account, in words that say where the names are (a request's, a key's, a connector's). */
export const unknownPolicyMessage = (name: string) =>
  `no policy named "${name}" (a preset: ${PRESET_NAMES.join(', ')}, or one of GET /v1/policies)`;

/** At most this many policies an account (a form, a store, a clean-up each: a handful is the real use). */
export const MAX_POLICIES_PER_ACCOUNT = 50;
/** How long a policy read for an answer is kept in memory; a change shows on every instance within it. */
const CACHE_TTL_MS = 1_000;

const stored = (r: Row): StoredPolicy => ({
  policy_id: r.id, name: r.name, base: r.base as PresetName, rules: rulesWith(JSON.parse(r.rules) as PolicyRules, {}),
  created_at: new Date(Number(r.created_at)).toISOString(), updated_at: new Date(Number(r.updated_at)).toISOString(),
});

export class PolicyStore {
  private readonly cache = new Map<string, { rules: PolicyRules | null; until: number }>();

  constructor(private readonly db: Database, private readonly now: () => number = Date.now) {}

  async list(accountId: string): Promise<StoredPolicy[]> {
    const rows = await this.db.all<Row>(
      `SELECT id, name, base, rules, created_at, updated_at FROM policies WHERE account_id = $1 ORDER BY name`, [accountId]);
    return rows.map(stored);
  }

  async get(accountId: string, policyId: string): Promise<StoredPolicy | null> {
    const [row] = await this.db.all<Row>(
      `SELECT id, name, base, rules, created_at, updated_at FROM policies WHERE account_id = $1 AND id = $2`, [accountId, policyId]);
    return row ? stored(row) : null;
  }

  async create(accountId: string, name: string, base: PresetName, changes: PolicyRulesInput): Promise<StoredPolicy> {
    if (isPresetName(name)) throw new PolicyRefused('preset_name', `"${name}" is a preset's name; give the policy a name of its own.`);
    const [{ n }] = await this.db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM policies WHERE account_id = $1`, [accountId]);
    if (Number(n) >= MAX_POLICIES_PER_ACCOUNT) throw new PolicyRefused('too_many', `An account has at most ${MAX_POLICIES_PER_ACCOUNT} policies.`);
    const id = newId('pol');
    const at = this.now();
    const rules = rulesWith(PRESETS[base], changes);
    const inserted = await this.db.run(
      `INSERT INTO policies (id, account_id, name, base, rules, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (account_id, name) DO NOTHING`,
      [id, accountId, name, base, JSON.stringify(rules), at],
    );
    if (inserted !== 1) throw new PolicyRefused('name_taken', `The account already has a policy named "${name}".`);
    this.cache.delete(`${accountId}\n${name}`);
    return (await this.get(accountId, id))!;
  }

  /** Lays `changes` over the policy's rules (a rule not named keeps its action); null when the account has no such policy. */
  async update(accountId: string, policyId: string, changes: PolicyRulesInput): Promise<StoredPolicy | null> {
    const policy = await this.get(accountId, policyId);
    if (!policy) return null;
    await this.db.run(
      `UPDATE policies SET rules = $1, updated_at = $2 WHERE account_id = $3 AND id = $4`,
      [JSON.stringify(rulesWith(policy.rules, changes)), this.now(), accountId, policyId],
    );
    this.cache.delete(`${accountId}\n${policy.name}`);
    return this.get(accountId, policyId);
  }

  /** False when there is no such policy; refused while a live key names it as its default, or a connector names it. */
  async remove(accountId: string, policyId: string): Promise<boolean> {
    const policy = await this.get(accountId, policyId);
    if (!policy) return false;
    const [keys, connectors] = await Promise.all([
      this.db.all<{ id: string }>(`SELECT id FROM api_keys WHERE account_id = $1 AND policy = $2 AND revoked_at IS NULL`, [accountId, policy.name]),
      this.db.all<{ id: string }>(`SELECT id FROM connectors WHERE account_id = $1 AND policy = $2 ORDER BY id`, [accountId, policy.name]),
    ]);
    const many = (rows: unknown[]) => rows.length > 1;
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).join(', ');
    const users = [
      ...(keys.length ? [`Key${many(keys) ? 's' : ''} ${ids(keys)} use${many(keys) ? '' : 's'} "${policy.name}" as default; revoke ${many(keys) ? 'them' : 'it'} or make new keys first.`] : []),
      ...(connectors.length ? [`Connector${many(connectors) ? 's' : ''} ${ids(connectors)} use${many(connectors) ? '' : 's'} "${policy.name}"; give ${many(connectors) ? 'them' : 'it'} another policy first (PATCH /v1/connectors/{id}).`] : []),
    ];
    if (users.length) throw new PolicyRefused('in_use', users.join(' '));
    await this.db.run(`DELETE FROM policies WHERE account_id = $1 AND id = $2`, [accountId, policyId]);
    this.cache.delete(`${accountId}\n${policy.name}`);
    return true;
  }

  /** The rules a name stands for in this account: a preset's, the account's own policy's, or null when it has none so named. */
  async rulesNamed(accountId: string, name: string): Promise<PolicyRules | null> {
    if (isPresetName(name)) return PRESETS[name];
    const cacheKey = `${accountId}\n${name}`;
    const hit = this.cache.get(cacheKey);
    if (hit && hit.until > this.now()) return hit.rules;
    const [row] = await this.db.all<{ rules: string }>(
      `SELECT rules FROM policies WHERE account_id = $1 AND name = $2`, [accountId, name]);
    const rules = row ? rulesWith(JSON.parse(row.rules) as PolicyRules, {}) : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(cacheKey, { rules, until: this.now() + CACHE_TTL_MS });
    return rules;
  }
}
