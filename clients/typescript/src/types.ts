/**
 * The service's answers, typed (docs/api.md#vocabularies, docs/batches.md, docs/connectors.md). The records and
 * vocabularies are generated from the OpenAPI description into models.ts (`npm run clients:generate`); here are only
 * the types the description leaves as plain strings, which this client knows more about.
 */
import type { CreateConnectorRequest } from './models.js';

export * from './models.js';

/** Known values plus any later addition, without losing autocompletion. */
type Open<T extends string> = T | (string & {});

/** Why the e-mail status; `syntax` may carry a finer code after a colon (`syntax:local_too_long`). */
export const EmailReason = {
  Syntax: 'syntax', NoSuchDomain: 'no_such_domain', NoMailServer: 'no_mail_server', NullMx: 'null_mx',
  MailboxNotFound: 'mailbox_not_found', Disabled: 'disabled', CatchAll: 'catch_all', MailboxFull: 'mailbox_full',
  Disposable: 'disposable', Role: 'role', TempFail: 'temp_fail', Timeout: 'timeout', Blocked: 'blocked',
  NoConnect: 'no_connect', DnsError: 'dns_error', Accepted: 'accepted', Typo: 'typo', NotChecked: 'not_checked',
  ReservedDomain: 'reserved_domain',
} as const;
export type EmailReason = Open<(typeof EmailReason)[keyof typeof EmailReason] | `syntax:${string}`>;

/** The platform a connector syncs with: one of the create body's variants. */
export type ConnectorType = Open<CreateConnectorRequest['type']>;
