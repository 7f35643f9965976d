/**
 * Text that came from a remote server (a platform's error message, an answer's body) as a tenant may see it on a run,
 * a connector or a problem: one line, no markup, no control or direction-changing characters, at most 200 characters.
 * The platform's own error code and status stay readable; a page of HTML or a long body does not come through.
 */
export const TENANT_TEXT_MAX = 200;

const MARKUP = /<[^>]*>/g;
// C0 and C1 controls, zero-width and bidirectional formatting characters (Unicode TR #9 explicit formatting).
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

export function tenantSafeText(text: string, max = TENANT_TEXT_MAX): string {
  const plain = text.replace(MARKUP, ' ').replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  return plain.length <= max ? plain : `${plain.slice(0, max - 1).trimEnd()}…`;
}
