/**
 * A person's browser, minus the rendering: keeps cookies, follows nothing by itself (redirects are asserted), and
 * sends forms with the CSRF token of the last page it read, as the browser would.
 */
export interface WebAnswer {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export class WebAgent {
  readonly cookies = new Map<string, string>();
  /** The `_csrf` value of the last page read. */
  csrf = '';

  constructor(readonly base: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private async answer(res: Response): Promise<WebAnswer> {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()];
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? /data-csrf="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, headers: res.headers, text, location: res.headers.get('location') };
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<WebAnswer> {
    const res = await fetch(this.base + path, { redirect: 'manual', headers: { cookie: this.cookieHeader(), accept: 'text/html', ...headers } });
    return this.answer(res);
  }

  /** A form post; `_csrf` is added unless the form names it (or `csrf: false`). */
  async post(path: string, form: Record<string, string>, options: { csrf?: boolean; headers?: Record<string, string> } = {}): Promise<WebAnswer> {
    const body = new URLSearchParams(options.csrf === false || '_csrf' in form ? form : { _csrf: this.csrf, ...form });
    const res = await fetch(this.base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
      body,
    });
    return this.answer(res);
  }

  /** Signs up (the page first, for its token) and lands signed in. */
  async signUp(email: string, password: string): Promise<WebAnswer> {
    await this.get('/signup');
    return this.post('/signup', { email, password });
  }

  async signIn(email: string, password: string): Promise<WebAnswer> {
    await this.get('/signin');
    return this.post('/signin', { email, password });
  }
}
