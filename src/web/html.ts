/**
 * HTML written as tagged templates: every interpolated value is escaped (text and attribute values alike) unless it
 * is itself a template's result. A typo cannot open a hole, and the pages need no template language nor a build step.
 */

/** Markup that is already safe: the result of `html\`…\`` or of `raw` (for trusted constants only). */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** For trusted constants (a stylesheet, an inline SVG built from numbers): never for anything a person typed. */
export function raw(text: string): Html {
  return new Html(text);
}
