/**
 * The rules a connector's answers follow (its `policy`, docs/connectors.md#policy), read at the start of each attempt at
 * its job: a policy changed meanwhile (the store keeps one a second) is followed from the next run or delivery on.
 */
import type { PolicyRules } from '../contact-check/policies.js';
import type { PolicyStore } from '../contact-check/policy-store.js';
import type { ConnectorRow } from './connector-store.js';
import { ConnectorError } from './plugin.js';

export type PolicyLookup = Pick<PolicyStore, 'rulesNamed'>;

/**
 * The connector's policy's rules; undefined without one (the fixed table). A name the account no longer has (deleted in
 * the moment after a connector was given it: the store refuses to delete one a connector names) fails the run rather
 * than write next actions by other rules than the connector says.
 */
export async function connectorRules(policies: PolicyLookup, connector: Pick<ConnectorRow, 'accountId' | 'policy'>): Promise<PolicyRules | undefined> {
  if (!connector.policy) return undefined;
  const rules = await policies.rulesNamed(connector.accountId, connector.policy);
  if (!rules) {
    throw new ConnectorError('api_error', `the connector's policy "${connector.policy}" is not a policy of the account any more: give it another (PATCH /v1/connectors/{id})`);
  }
  return rules;
}
