/**
 * Address suggestions as the shopper types in a street field (src/widget/README.md#address-suggestions), from
 * GET /v1/address/autocomplete with the store's publishable key: free, so asked as the shopper types, debounced.
 *
 * The street field becomes a combobox with a list of suggestions, as the WAI-ARIA Authoring Practices' "editable
 * combobox with list autocomplete" pattern has it: the input keeps focus and carries `role="combobox"`,
 * `aria-autocomplete="list"`, `aria-expanded`, `aria-controls` and `aria-activedescendant`; the list is a `listbox`
 * of `option`s. Down and Up move through the suggestions, Enter takes the highlighted one (and only then is the
 * keystroke kept from the form), Escape closes the list; a click takes one too. Taking one fills the street, city,
 * state and ZIP fields the way typing would.
 *
 * As the rest of the widget, it never blocks the form: a failed or slow request shows nothing, and the form submits
 * whatever the list is doing. Suggestions are written with textContent: data, never markup.
 */
import type { AddressGroup, BrowserDocument, BrowserElement, BrowserEvent, Field } from './browser-api.js';

declare const document: BrowserDocument;

export interface AutocompleteDeps {
  api: string;
  key: string;
  /** True for a street (address line 1) field the widget watches. */
  isStreetField(el: unknown): el is Field;
  /** The fields of the street field's address group. */
  groupOf(field: Field): AddressGroup | undefined;
  fill(el: Field | undefined, value: string): void;
  element(tag: string, className: string, style: string, text?: string): BrowserElement;
  debug(message: string): void;
}

interface Suggestion {
  text: string;
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  kind: string;
}

const DEBOUNCE_MS = 200;
const TIMEOUT_MS = 1500;
const MIN_CHARACTERS = 3;
/** Suggestions are free, but a page that asks without end is a script gone wrong: it stops there. */
const MAX_REQUESTS = 200;
const LIST_STYLE = 'position:absolute;z-index:2147483647;box-sizing:border-box;min-width:16em;max-width:36em;margin:2px 0 0;' +
  'padding:4px 0;list-style:none;background:#fff;color:#202223;border:1px solid #8c9196;border-radius:6px;' +
  'box-shadow:0 4px 12px rgba(0,0,0,.15);font:inherit;font-size:14px;line-height:1.4;text-align:left';
const OPTION_STYLE = 'margin:0;padding:6px 12px;cursor:pointer';
const ACTIVE_STYLE = `${OPTION_STYLE};background:#e3f1ff`;

export function attachAutocomplete(deps: AutocompleteDeps): void {
  const answers = new Map<string, Suggestion[]>();
  let requests = 0;
  let lists = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;

  /** One combobox per street field, set up when it first gets focus. */
  interface Combobox {
    field: Field;
    list: BrowserElement;
    shown: Suggestion[];
    /** The value the shown suggestions are for. */
    shownFor: string;
    active: number;
    /** The value a taken suggestion wrote: the input event it raises asks nothing. */
    taken: string;
  }
  const boxes = new WeakMap<Field, Combobox>();

  function comboboxOf(field: Field): Combobox {
    let box = boxes.get(field);
    if (box) return box;
    const list = deps.element('ul', 'suggestions', `${LIST_STYLE};display:none`);
    list.id = `cvw-suggestions-${++lists}`;
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', 'Address suggestions');
    field.after(list);
    field.setAttribute('role', 'combobox');
    field.setAttribute('aria-autocomplete', 'list');
    field.setAttribute('aria-expanded', 'false');
    field.setAttribute('aria-controls', list.id);
    box = { field, list, shown: [], shownFor: '', active: -1, taken: '' };
    boxes.set(field, box);
    return box;
  }

  function highlight(box: Combobox, index: number): void {
    box.active = index;
    box.shown.forEach((_, i) => {
      const option = box.list.querySelector(`#${box.list.id}-${i}`)!;
      option.setAttribute('aria-selected', String(i === index));
      option.style.cssText = i === index ? ACTIVE_STYLE : OPTION_STYLE;
      if (i === index) option.scrollIntoView({ block: 'nearest' });
    });
    if (index >= 0) box.field.setAttribute('aria-activedescendant', `${box.list.id}-${index}`);
    else box.field.removeAttribute('aria-activedescendant');
  }

  function close(box: Combobox): void {
    box.list.style.cssText = `${LIST_STYLE};display:none`;
    box.field.setAttribute('aria-expanded', 'false');
    highlight(box, -1);
  }

  function show(box: Combobox, suggestions: Suggestion[]): void {
    box.shown = suggestions;
    box.shownFor = box.field.value.trim();
    box.list.textContent = '';
    suggestions.forEach((s, i) => {
      const option = deps.element('li', 'suggestion', OPTION_STYLE, s.text);
      option.id = `${box.list.id}-${i}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', 'false');
      // On mousedown, not click: focus stays in the field, which would otherwise close the list before the click.
      option.addEventListener('mousedown', (event) => {
        event.preventDefault();
        take(box, i);
      });
      box.list.append(option);
    });
    if (!suggestions.length) return close(box);
    box.list.style.cssText = LIST_STYLE;
    box.field.setAttribute('aria-expanded', 'true');
    highlight(box, -1);
  }

  function take(box: Combobox, index: number): void {
    const s = box.shown[index];
    const group = deps.groupOf(box.field);
    close(box);
    if (!s?.street) return;
    box.taken = s.street;
    deps.fill(box.field, s.street);
    if (group) {
      deps.fill(group.city, s.city ?? '');
      deps.fill(group.state, s.state ?? '');
      deps.fill(group.postal_code, s.zip ?? '');
    }
  }

  async function suggest(box: Combobox): Promise<void> {
    const typed = box.field.value.trim();
    const country = deps.groupOf(box.field)?.country?.value.trim() ?? '';
    const query = `q=${encodeURIComponent(typed)}&limit=5${/^[A-Za-z]{2}$/.test(country) ? `&country=${country}` : ''}`;
    const known = answers.get(query);
    if (known) return show(box, known);
    if (requests++ >= MAX_REQUESTS) return deps.debug('suggestion limit for this page reached');
    inFlight?.abort();
    const abort = (inFlight = new AbortController());
    const timeout = setTimeout(() => abort.abort(), TIMEOUT_MS);
    try {
      const res = await fetch(`${deps.api}/v1/address/autocomplete?${query}`, {
        headers: { Authorization: `Bearer ${deps.key}` }, signal: abort.signal, credentials: 'omit', mode: 'cors',
      });
      if (!res.ok) return deps.debug(`suggestions answered ${res.status}`);
      // A checkout needs a delivery point: streets and places are not offered in the street field.
      const found = ((await res.json()) as { suggestions: Suggestion[] }).suggestions.filter((s) => s.kind === 'address');
      answers.set(query, found);
      // The shopper may have typed on: an answer about older input is kept for later, not shown.
      if (box.field.value.trim() === typed && box.field.isConnected) show(box, found);
    } catch (err) {
      // (A request a newer one replaced is no failure.)
      if (inFlight === abort) deps.debug(`suggestions failed: ${(err as Error)?.name ?? 'error'}`);
    } finally {
      clearTimeout(timeout);
    }
  }

  function onInput(event: BrowserEvent): void {
    if (!deps.isStreetField(event.target)) return;
    const box = comboboxOf(event.target);
    clearTimeout(timer);
    const value = box.field.value.trim();
    if (value === box.taken || value.length < MIN_CHARACTERS) return close(box);
    timer = setTimeout(() => void suggest(box), DEBOUNCE_MS);
  }

  function onKeyDown(event: BrowserEvent): void {
    if (!deps.isStreetField(event.target)) return;
    const box = boxes.get(event.target);
    if (!box) return;
    const open = box.field.getAttribute('aria-expanded') === 'true';
    const count = box.shownFor === box.field.value.trim() ? box.shown.length : 0;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && count) {
      event.preventDefault(); // the caret stays where it is
      if (!open) show(box, box.shown);
      const step = event.key === 'ArrowDown' ? 1 : count - 1;
      highlight(box, box.active < 0 ? (event.key === 'ArrowDown' ? 0 : count - 1) : (box.active + step) % count);
    } else if (event.key === 'Enter' && open && box.active >= 0) {
      event.preventDefault(); // Enter takes the highlighted suggestion instead of submitting the form
      take(box, box.active);
    } else if (event.key === 'Escape' && open) {
      close(box);
    }
  }

  document.addEventListener('focusin', (event) => {
    if (deps.isStreetField(event.target)) comboboxOf(event.target);
  }, true);
  document.addEventListener('input', onInput, true);
  document.addEventListener('keydown', onKeyDown, true);
  document.addEventListener('focusout', (event) => {
    const box = deps.isStreetField(event.target) ? boxes.get(event.target) : undefined;
    if (box) close(box);
  }, true);
}
