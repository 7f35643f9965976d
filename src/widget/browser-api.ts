/**
 * The few browser APIs the widget uses, typed here rather than with TypeScript's DOM library: the project is one
 * program (tsconfig.json, lib ES2024 + Node types), and a `/// <reference lib="dom" />` in the widget would change the
 * global types of every server file too (fetch's body, Response, Event). Types only: nothing here reaches the bundle.
 * The names match the DOM's, so the widget reads like ordinary browser code.
 */

/** An event as the widget reads it: its target, the key of a keyboard event, and the default it may cancel. */
export interface BrowserEvent {
  readonly target: unknown;
  readonly key?: string;
  preventDefault(): void;
}

export interface BrowserElement {
  readonly tagName: string;
  id: string;
  readonly parentElement: BrowserElement | null;
  readonly isConnected: boolean;
  className: string;
  textContent: string | null;
  readonly style: { cssText: string };
  getClientRects(): { readonly length: number };
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  scrollIntoView(options?: { block?: 'nearest' | 'start' | 'end' | 'center' }): void;
  querySelector(selectors: string): BrowserElement | null;
  querySelectorAll<E extends BrowserElement = BrowserElement>(selectors: string): Iterable<E>;
  contains(other: unknown): boolean;
  after(...nodes: (BrowserElement | string)[]): void;
  append(...nodes: (BrowserElement | string)[]): void;
  remove(): void;
  focus(options?: { preventScroll?: boolean }): void;
  addEventListener(type: string, listener: (event: BrowserEvent) => void, capture?: boolean): void;
  /** Node's global Event (an EventInit with bubbles) is the browser's. */
  dispatchEvent(event: Event): boolean;
}

interface FormControl extends BrowserElement {
  value: string;
  readonly name: string;
  readonly id: string;
  readonly disabled: boolean;
  readonly form: BrowserElement | null;
}

export interface InputElement extends FormControl {
  readonly tagName: 'INPUT';
  readonly type: string;
}

export interface SelectElement extends FormControl {
  readonly tagName: 'SELECT';
  readonly options: Iterable<{ readonly value: string; readonly text: string }>;
}

export interface TextAreaElement extends FormControl {
  readonly tagName: 'TEXTAREA';
}

export interface ButtonElement extends BrowserElement {
  type: string;
}

export interface ScriptElement extends BrowserElement {
  readonly src: string;
  readonly dataset: Record<string, string | undefined>;
}

export interface BrowserDocument {
  readonly currentScript: BrowserElement | null;
  readonly activeElement: BrowserElement | null;
  querySelector(selectors: string): BrowserElement | null;
  querySelectorAll<E extends BrowserElement = BrowserElement>(selectors: string): Iterable<E>;
  createElement(tagName: string): BrowserElement;
  addEventListener(type: string, listener: (event: BrowserEvent) => void, capture?: boolean): void;
}

/** A constructor, for `instanceof` at run time (the browser's own classes). */
export interface ElementClass<E> {
  new (): E;
  readonly prototype: E;
}

/** A form field the script reads: a text input, a select or a text area. */
export type Field = InputElement | SelectElement | TextAreaElement;
/** What a field of an address is, as the script tells it from its name, autocomplete token or label. */
export type AddressRole = 'line1' | 'line2' | 'city' | 'state' | 'postal_code' | 'country';
/** The fields of one address on the page (widget.ts finds them; autocomplete.ts fills them). */
export type AddressGroup = Partial<Record<AddressRole, Field>>;
