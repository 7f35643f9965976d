/**
 * The checkout widget (src/widget/README.md), served as GET /widget.js: a store adds
 *   <script src="https://api.example.com/widget.js" data-key="cv_pub_…" defer></script>
 * and, when the shopper leaves the address part of a form, the address (and e-mail) is checked with the store's
 * publishable key; a standardized address or a corrected e-mail is offered in a small "Did you mean …?" box.
 *
 * Rules it keeps, because it runs on someone else's checkout page:
 * - It never blocks or slows the form: it listens only (no preventDefault), each check has a short timeout, and any
 *   error, timeout or non-2xx answer is silence (one console.debug line per page at most).
 * - The answer is data, never markup: it is written with textContent. No eval, no innerHTML, no global CSS: styles are
 *   set through the CSSOM on its own elements (allowed under a Content-Security-Policy without 'unsafe-inline'), whose
 *   classes carry the `cvw-` prefix.
 * - A check costs the store credits: the same input is not sent twice, and a page sends at most MAX_CHECKS.
 */

import type {
  AddressGroup, AddressRole, BrowserDocument, BrowserElement, ButtonElement, ElementClass, Field, InputElement, ScriptElement,
  SelectElement, TextAreaElement,
} from './browser-api.js';
import { attachAutocomplete } from './autocomplete.js';
import { POLICY_NAME } from '../contact-check/policy-name.js';

// The browser's globals (see browser-api.ts for why they are declared here).
declare const document: BrowserDocument;
declare const location: { readonly href: string };
declare const HTMLInputElement: ElementClass<InputElement>;
declare const HTMLSelectElement: ElementClass<SelectElement>;
declare const HTMLTextAreaElement: ElementClass<TextAreaElement>;

const TIMEOUT_MS = 1500;
const DEBOUNCE_MS = 350;
const MAX_CHECKS = 12;
const PREFIX = 'cvw';

type Role = AddressRole | 'email';
type AddressParts = Partial<Record<AddressRole, string>>;

/** The answer's `next_action` decides what the shopper sees: nothing (`accept`), an offer (`confirm`), a note (`fix`). */
type NextAction = 'accept' | 'confirm' | 'fix';
interface AddressAnswer {
  status: string;
  next_action: NextAction;
  components?: Record<string, string | null> | null;
}
interface EmailAnswer {
  status: string;
  next_action: NextAction;
  suggestion?: string | null;
}

/** HTML autocomplete tokens (WHATWG HTML §4.10.18.7.1) first: themes and checkouts that care set them. */
const AUTOCOMPLETE = new Map<string, Role>(Object.entries({
  'address-line1': 'line1',
  'street-address': 'line1',
  'address-line2': 'line2',
  'address-level2': 'city',
  'address-level1': 'state',
  'postal-code': 'postal_code',
  country: 'country',
  'country-name': 'country',
  email: 'email',
}) as [string, Role][]);

/**
 * Then the field's name or id, last segment (`checkout[shipping_address][address1]` → `address1`, `street[0]` →
 * `street1`). Order matters: the first match wins, and line1 is tried last because its words are the most common.
 */
const NAME_PATTERNS: [Role, RegExp][] = [
  ['email', /e-?mail/],
  ['line2', /(address|addr|street|line)[-_ ]?(line[-_ ]?)?2$|apartment|suite|^apt/],
  ['postal_code', /zip|postal|postcode/],
  ['city', /city|town|locality|suburb/],
  ['state', /state|province|region/],
  ['country', /country/],
  ['line1', /(address|addr|street|line)[-_ ]?(line[-_ ]?)?1$|^street([-_ ]?address)?$|^(shipping|billing)?[-_ ]?address$/],
];

const ADDRESS_ROLES: AddressRole[] = ['line1', 'line2', 'city', 'state', 'postal_code', 'country'];
/** The request schema's lengths (src/contact-check/contact-request.ts): a longer value would be a 400, so it is cut. */
const MAX_LENGTH: Record<Role, number> = { line1: 300, line2: 300, city: 100, state: 100, postal_code: 20, country: 60, email: 512 };

const script = (document.currentScript ?? document.querySelector('script[data-key][src*="widget.js"]')) as ScriptElement | null;

let debugged = false;
function debug(message: string): void {
  if (debugged) return;
  debugged = true;
  console.debug(`[contact-validator widget] ${message}`);
}

function isField(el: unknown): el is Field {
  return el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;
}

function nameKey(text: string): string {
  const segments = text.toLowerCase().split(/[[\]]+/).filter(Boolean);
  let last = segments.pop() ?? '';
  if (/^\d+$/.test(last)) last = (segments.pop() ?? '') + (Number(last) + 1);
  return last;
}

function roleOf(el: Field): Role | undefined {
  if (el.disabled || (el instanceof HTMLInputElement && !/^(text|email|search|tel|)$/.test(el.type))) return undefined;
  if (el instanceof HTMLInputElement && el.type === 'email') return 'email';
  for (const token of (el.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/)) {
    const role = AUTOCOMPLETE.get(token);
    if (role) return role;
  }
  for (const key of [nameKey(el.name), nameKey(el.id)]) {
    if (!key) continue;
    for (const [role, pattern] of NAME_PATTERNS) if (pattern.test(key)) return role;
  }
  return undefined;
}

function visible(el: BrowserElement): boolean {
  return el.getClientRects().length > 0;
}

/** The form named by data-form, else the whole page. */
function scopeRoot(): BrowserElement | undefined {
  const selector = script?.dataset.form;
  return (selector && document.querySelector(selector)) || undefined;
}

/** The visible fields of `root`, first one of each role. */
function fieldsIn(root: BrowserElement | BrowserDocument): Partial<Record<Role, Field>> {
  const found: Partial<Record<Role, Field>> = {};
  for (const el of root.querySelectorAll<Field>('input, select, textarea')) {
    const role = roleOf(el);
    if (role && !found[role] && visible(el)) found[role] = el;
  }
  return found;
}


/**
 * The address group a field belongs to: the nearest ancestor holding a street line and a city or postal code. A form
 * with a billing and a shipping address usually wraps each; the field's own group is the one checked.
 */
function addressGroupOf(field: Field): AddressGroup | undefined {
  const root = scopeRoot();
  for (let node = field.parentElement; node; node = node.parentElement) {
    const found = fieldsIn(node);
    if (found.line1 && (found.city || found.postal_code)) {
      delete found.email;
      return found as Partial<Record<AddressRole, Field>>;
    }
    if (node === root) break;
  }
  return undefined;
}

function clean(value: string, role: Role): string {
  // The schema refuses control characters; a street-address textarea may hold line breaks.
  return value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_LENGTH[role]);
}

function readAddress(group: Partial<Record<AddressRole, Field>>): AddressParts {
  const parts: AddressParts = {};
  for (const role of ADDRESS_ROLES) {
    const value = group[role] ? clean(group[role].value, role) : '';
    if (value) parts[role] = value;
  }
  return parts;
}

const comparable = (s: string | undefined) => (s ?? '').toUpperCase().replace(/[.,#]/g, '').replace(/\s+/g, ' ').trim();

/** The parts to fill from the answer's components (docs/api.md#vocabularies). */
function suggestedParts(c: Record<string, string | null>): { street: string; secondary: string; city: string; state: string; postal_code: string } {
  const join = (...xs: (string | null | undefined)[]) => xs.filter(Boolean).join(' ');
  return {
    street: join(c.primary_number, c.street_predirection, c.street_name, c.street_suffix, c.street_postdirection),
    secondary: join(c.secondary_designator, c.secondary_number),
    city: c.city ?? '',
    state: c.state ?? '',
    postal_code: c.postal_code ? (c.plus4 ? `${c.postal_code}-${c.plus4}` : c.postal_code) : '',
  };
}

function differs(typed: AddressParts, s: ReturnType<typeof suggestedParts>): boolean {
  const typedStreet = comparable([typed.line1, typed.line2].filter(Boolean).join(' '));
  const suggestedStreet = comparable([s.street, s.secondary].filter(Boolean).join(' '));
  // ZIP+4 alone is no reason to interrupt the shopper: it is filled anyway when they accept a suggestion.
  return typedStreet !== suggestedStreet || comparable(typed.city) !== comparable(s.city) ||
    comparable(typed.state) !== comparable(s.state) || comparable(typed.postal_code).slice(0, 5) !== comparable(s.postal_code).slice(0, 5);
}

/** Sets a value the way typing would, so frameworks that track input (React, Vue) see it. */
function fill(el: Field | undefined, value: string): void {
  if (!el) return;
  if (el instanceof HTMLSelectElement) {
    const option = Array.from(el.options).find((o) => comparable(o.value) === comparable(value) || comparable(o.text) === comparable(value));
    if (!option) return;
    value = option.value;
  }
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

// ---- The suggestion box -------------------------------------------------------------------------------------------

const STYLES = {
  box: 'display:block;box-sizing:border-box;margin:8px 0;font:inherit;font-size:14px;line-height:1.4;color:#202223;text-align:left',
  section: 'box-sizing:border-box;margin:0 0 8px;padding:10px 12px;border:1px solid #8c9196;border-radius:6px;background:#f6f6f7',
  address: 'display:block;margin:4px 0 8px;font-weight:600',
  button: 'font:inherit;font-size:14px;margin:0 8px 0 0;padding:4px 10px;border:1px solid #5c5f62;border-radius:4px;cursor:pointer',
  primary: 'background:#202223;color:#fff',
  secondary: 'background:#fff;color:#202223',
};

function element(tag: string, className: string, style: string, text?: string): BrowserElement {
  const el = document.createElement(tag);
  el.className = `${PREFIX}-${className}`;
  el.style.cssText = style;
  if (text !== undefined) el.textContent = text;
  return el;
}

let box: BrowserElement | undefined;

/** One live region per page, present before it speaks so screen readers announce what is put into it. */
function ensureBox(anchor: Field): BrowserElement {
  if (box?.isConnected) return box;
  box = element('div', 'box', STYLES.box);
  box.setAttribute('role', 'status');
  box.setAttribute('aria-live', 'polite');
  (anchor.form ?? scopeRoot() ?? anchor).after(box);
  return box;
}

function section(kind: 'address' | 'email', anchor: Field): BrowserElement {
  const root = ensureBox(anchor);
  root.querySelector(`.${PREFIX}-${kind}`)?.remove();
  const el = element('div', kind, STYLES.section);
  root.append(el);
  return el;
}

function clear(kind: 'address' | 'email'): void {
  box?.querySelector(`.${PREFIX}-${kind}`)?.remove();
}

function button(label: string, primary: boolean, onClick: () => void): ButtonElement {
  const b = <ButtonElement>element('button', primary ? 'use' : 'keep', STYLES.button + ';' + (primary ? STYLES.primary : STYLES.secondary), label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/** After a choice the box closes: focus goes back to the field, not to the page's top. */
function close(kind: 'address' | 'email', focus: Field | undefined): void {
  const hadFocus = box?.contains(document.activeElement) ?? false;
  clear(kind);
  if (hadFocus) focus?.focus({ preventScroll: true });
}

// ---- Checking -------------------------------------------------------------------------------------------------------

const config = {
  key: script?.dataset.key ?? '',
  api: (script?.dataset.api || (script?.src ? new URL(script.src, location.href).origin : '')).replace(/\/+$/, ''),
  /** data-policy: the policy the answers follow (a preset or one of the account's); else the key's default. */
  policy: script?.dataset.policy ?? '',
};

let checks = 0;
const sent = { address: '', email: '' };
let lastLeft: Field | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

function showAddress(answer: AddressAnswer, typed: AddressParts, group: Partial<Record<AddressRole, Field>>): void {
  const c = answer.components;
  const s = c ? suggestedParts(c) : undefined;
  const anchor = group.line1!;
  if (answer.next_action === 'fix') {
    const el = section('address', anchor);
    el.append(element('span', 'note', '', 'We could not find this address. Please check it; you can still continue.'));
    return;
  }
  // `accept`: the address is good as typed; its standardized spelling alone is no reason to interrupt the shopper.
  const offer = answer.next_action === 'confirm' && s && s.street && (s.city || s.postal_code) &&
    (answer.status === 'corrected' || answer.status === 'ambiguous' || differs(typed, s));
  if (!offer) {
    if (answer.status === 'partial') {
      section('address', anchor).append(element('span', 'note', '', 'Please check the apartment or unit number.'));
    } else clear('address');
    return;
  }
  const el = section('address', anchor);
  el.append(element('span', 'title', '', 'Did you mean:'));
  const lastLine = [s.city, [s.state, s.postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const shown = element('span', 'suggestion', STYLES.address);
  shown.append([s.street, s.secondary].filter(Boolean).join(' '), document.createElement('br'), lastLine);
  el.append(shown);
  el.append(
    button('Use this address', true, () => {
      // The unit goes to the second line when the form has one, else it stays on the street line.
      if (group.line2 && s.secondary) {
        fill(group.line1, s.street);
        fill(group.line2, s.secondary);
      } else fill(group.line1, [s.street, s.secondary].filter(Boolean).join(' '));
      fill(group.city, s.city);
      fill(group.state, s.state);
      fill(group.postal_code, s.postal_code);
      sent.address = JSON.stringify(readAddress(group));
      close('address', group.line1);
    }),
    button('Keep mine', false, () => close('address', group.line1)),
  );
}

function showEmail(answer: EmailAnswer, typed: string, field: Field): void {
  const suggestion = answer.next_action === 'accept' ? null : answer.suggestion;
  if (suggestion && suggestion.toLowerCase() !== typed.toLowerCase()) {
    const el = section('email', field);
    el.append(element('span', 'title', '', `Did you mean ${suggestion}?`), document.createElement('br'));
    el.append(
      button('Use this e-mail', true, () => {
        fill(field, suggestion);
        sent.email = clean(field.value, 'email');
        close('email', field);
      }),
      button('Keep mine', false, () => close('email', field)),
    );
  } else if (answer.next_action === 'fix') {
    section('email', field).append(element('span', 'note', '', 'Please check your e-mail address.'));
  } else clear('email');
}

async function check(): Promise<void> {
  const left = lastLeft;
  if (!left?.isConnected) return;
  const active = document.activeElement;
  if (box?.contains(active)) return;

  const group = roleOf(left) === 'email' ? undefined : addressGroupOf(left);
  const emailField = fieldsIn(scopeRoot() ?? document).email;
  const body: { address?: AddressParts; email?: string; options: { smtp: boolean } } = { options: { smtp: false } };

  let typed: AddressParts | undefined;
  // The address once focus has left its group (moving from street to city is not leaving it).
  if (group && !Object.values(group).includes(active as Field)) {
    typed = readAddress(group);
    const signature = JSON.stringify(typed);
    if (typed.line1 && (typed.city || typed.postal_code) && signature !== sent.address) {
      body.address = typed;
      sent.address = signature;
    }
  }
  const email = emailField && active !== emailField ? clean(emailField.value, 'email') : '';
  if (email && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) && email !== sent.email) {
    body.email = email;
    sent.email = email;
  }
  if (!body.address && !body.email) return;
  if (checks++ >= MAX_CHECKS) return debug('check limit for this page reached');

  const abort = new AbortController();
  const timeout = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    const res = await fetch(`${config.api}/v1/validate${config.policy ? `?policy=${encodeURIComponent(config.policy)}` : ''}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${config.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: abort.signal,
      credentials: 'omit',
      mode: 'cors',
    });
    if (!res.ok) return debug(`check answered ${res.status}`);
    const answer = (await res.json()) as { address?: AddressAnswer | null; email?: EmailAnswer | null };
    // The shopper may have typed on while the check ran: an answer about older input is dropped.
    if (body.address && group && answer.address && JSON.stringify(readAddress(group)) === JSON.stringify(body.address)) {
      showAddress(answer.address, body.address, group);
    }
    if (body.email && emailField && answer.email && clean(emailField.value, 'email') === body.email) {
      showEmail(answer.email, body.email, emailField);
    }
  } catch (err) {
    debug(`check failed: ${(err as Error)?.name ?? 'error'}`);
  } finally {
    clearTimeout(timeout);
  }
}

function onFocusOut(event: { target: unknown }): void {
  const target = event.target;
  if (!isField(target) || !roleOf(target)) return;
  const root = scopeRoot();
  if (root && !root.contains(target)) return;
  lastLeft = target;
  clearTimeout(timer);
  // Debounced, and decided when it fires: by then focus has settled on the next field (or left the form).
  timer = setTimeout(() => void check(), DEBOUNCE_MS);
}

if (!/^cv_pub_[0-9A-Za-z]+$/.test(config.key)) {
  // A secret key (cv_live_) in a page would be readable by anyone: the widget refuses to send it.
  debug('data-key must be a publishable key (cv_pub_…); the widget is off');
} else if (config.policy && !POLICY_NAME.test(config.policy)) {
  debug('data-policy must be a policy name (checkout, signup, or one of the account\'s); the widget is off');
} else if (!/^https?:\/\//.test(config.api)) {
  debug('no API address (data-api or the script\'s own URL); the widget is off');
} else {
  document.addEventListener('focusout', onFocusOut, true);
  if (script?.dataset.autocomplete !== 'off') {
    attachAutocomplete({
      ...config, fill, element, debug, groupOf: addressGroupOf,
      isStreetField: (el: unknown): el is Field => isField(el) && !(el instanceof HTMLSelectElement) && roleOf(el) === 'line1',
    });
  }
}
