/**
 * An account with people, made through the people use case as the dashboard makes it (no mail relay: the links come
 * back, as in development): its owner signs up and confirms, invites a member, who joins; each makes a key. A member's
 * key is refused where an owner or admin key is needed (docs/account.md#key-roles).
 */
import type { TestService } from './service.js';

const PASSWORD = 'a long enough passphrase';
const tokenOf = (link: string | undefined) => {
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error('no link came back: is SMTP_URL set?');
  return token;
};

export async function accountWithMember(s: TestService) {
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const { link } = await s.people.signUp({ email: `owner-${tag}@example.com`, password: PASSWORD }, s.url, '127.0.0.1');
  await s.people.confirmEmail(tokenOf(link));
  const [owner] = await s.db.all<{ id: string; account_id: string }>(`SELECT id, account_id FROM users WHERE email = $1`, [`owner-${tag}@example.com`]);
  const invite = await s.people.invite({ userId: owner!.id, accountId: owner!.account_id, role: 'owner' }, `member-${tag}@example.com`, s.url);
  const { userId: memberId } = await s.people.setPassword(tokenOf(invite), 'member passphrase here', 'invite');
  const ownerKey = (await s.accounts.createKey(owner!.account_id, undefined, { createdBy: owner!.id })).api_key;
  const memberKey = (await s.accounts.createKey(owner!.account_id, undefined, { createdBy: memberId })).api_key;
  return { accountId: owner!.account_id, ownerKey, memberKey };
}
