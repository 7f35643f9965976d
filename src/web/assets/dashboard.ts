/**
 * The dashboard's only script, and every page works without it: copy buttons, a confirmation before revoking or
 * removing, what a chosen file will cost, the upload's progress bar, and live progress of running batches. Requests
 * carry the page's CSRF token.
 */

const csrf = document.body.dataset.csrf ?? '';

// Copy a new key, or a command shown in a box, to the clipboard.
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy ?? '');
    if (!source) return;
    let text: string;
    if (source instanceof HTMLInputElement) {
      source.select();
      text = source.value;
    } else {
      getSelection()?.selectAllChildren(source);
      text = source.textContent ?? '';
    }
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Press Ctrl+C';
    }
  });
}

// Ask before a destructive action.
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!window.confirm(form.dataset.confirm ?? 'Are you sure?')) event.preventDefault();
  });
}

/**
 * A CSV file's header line and number of rows, counted as the service will count them: RFC 4180 quotes (a line break
 * inside quotes is part of a cell), empty lines skipped. Read as a stream: a large file is never whole in memory.
 */
async function csvShape(file: File): Promise<{ header: string; rows: number }> {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder();
  let quoted = false;
  let filled = false;
  let line = '';
  let header: string | null = null;
  let records = 0;
  for (;;) {
    const { done, value } = await reader.read();
    const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    for (const ch of text) {
      if (ch === '"') quoted = !quoted;
      if (!quoted && (ch === '\n' || ch === '\r')) {
        if (filled) {
          records++;
          header ??= line;
        }
        filled = false;
        if (header === null) line = '';
        continue;
      }
      filled = true;
      if (header === null && line.length < 16_384) line += ch;
    }
    if (done) break;
  }
  if (filled) {
    records++;
    header ??= line;
  }
  return { header: (header ?? '').replace(/^\uFEFF/, ''), rows: Math.max(0, records - 1) };
}

// What the chosen file will cost: its header and row count, priced by the service with the columns the upload reads.
const estimate = document.getElementById('upload-estimate');
const fileInput = document.getElementById('f-file') as HTMLInputElement | null;
if (estimate && fileInput) {
  const number = (n: number) => n.toLocaleString('en-US');
  let asked = 0;
  const submit = document.querySelector<HTMLButtonElement>('#upload-form button[type=submit]');
  /** A file the service refuses is said once, here: its upload button waits for another file or other columns. */
  const show = (text: string, short = false, refused = false) => {
    estimate.textContent = text;
    estimate.classList.toggle('short', short);
    if (submit) submit.disabled = refused;
  };
  const price = async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    const ask = ++asked;
    show('Counting the rows…');
    try {
      const { header, rows } = await csvShape(file);
      const columns: Record<string, string> = {};
      for (const name of ['address_columns', 'email_column', 'phone_column', 'country_column']) {
        const value = (document.getElementById(`f-${name}`) as HTMLInputElement | null)?.value.trim();
        if (value) columns[name] = value;
      }
      const res = await fetch('/batches/estimate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': csrf },
        body: JSON.stringify({ header, rows, ...columns }),
      });
      const answer = (await res.json()) as { credits: number; most: number; balance: number; detail?: string };
      if (ask !== asked) return;
      if (!res.ok) return show(answer.detail ?? `The file cannot be priced (${res.status}).`, true, res.status === 422 || res.status === 400);
      const range = answer.most > answer.credits ? ` (at most ${number(answer.most)})` : '';
      const text = `About ${number(answer.credits)} credits${range} for ${number(rows)} rows; balance ${number(answer.balance)}.`;
      if (answer.balance >= answer.credits) return show(text);
      show(`${text} The balance does not cover it: the batch pauses when the credits run out, and goes on once more are added.`, true);
    } catch {
      if (ask === asked) show('The cost could not be estimated; the upload still works.');
    }
  };
  fileInput.addEventListener('change', () => void price());
  for (const input of document.querySelectorAll<HTMLInputElement>('#upload-form details input:not([type=checkbox])')) {
    input.addEventListener('change', () => void price());
  }
}

// Upload with a progress bar, then follow the batch.
const upload = document.getElementById('upload-form') as HTMLFormElement | null;
if (upload) {
  const bar = document.getElementById('upload-progress') as HTMLProgressElement;
  const status = document.getElementById('upload-status') as HTMLElement;
  upload.addEventListener('submit', (event) => {
    event.preventDefault();
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/batches');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-CSRF-Token', csrf);
    bar.hidden = false;
    bar.value = 0;
    status.textContent = 'Uploading…';
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) bar.value = Math.round((e.loaded / e.total) * 100);
    });
    xhr.addEventListener('load', () => {
      if (xhr.status === 202) {
        status.textContent = 'Uploaded; checking the rows…';
        window.location.assign('/batches?done=batch-uploaded');
        return;
      }
      let detail = `The upload failed (${xhr.status}).`;
      try {
        detail = (JSON.parse(xhr.responseText) as { detail?: string }).detail ?? detail;
      } catch {
        // not a problem document
      }
      bar.hidden = true;
      // The one place the refusal is said: a refused file's estimate (its own refusal) is not left beside it.
      const estimate = document.getElementById('upload-estimate');
      if (estimate && (xhr.status === 422 || estimate.textContent === detail)) estimate.textContent = '';
      status.textContent = detail;
    });
    xhr.addEventListener('error', () => {
      bar.hidden = true;
      status.textContent = 'The upload was interrupted; try again.';
    });
    xhr.send(new FormData(upload));
  });
}

// Live progress of the batches still running.
interface BatchStatus { status: string; rows_done: number; rows_total: number; rows_failed: number; credits_charged: number; balance?: number }
const running = () => [...document.querySelectorAll<HTMLTableRowElement>('tr[data-batch]')]
  .filter((row) => ['queued', 'running'].includes(row.dataset.status ?? ''));
/** Once nothing runs, the upload's "being checked" notice says the file is checked (its server-written second text). */
function settleNotices(): void {
  if (running().length > 0) return;
  for (const notice of document.querySelectorAll<HTMLElement>('.flash[data-done-text]')) {
    notice.textContent = notice.dataset.doneText ?? '';
    delete notice.dataset.doneText;
  }
}
async function poll(): Promise<void> {
  const rows = running();
  settleNotices();
  if (rows.length === 0) return;
  for (const row of rows) {
    try {
      const res = await fetch(`/batches/${encodeURIComponent(row.dataset.batch ?? '')}/status`, { headers: { Accept: 'application/json' } });
      if (!res.ok) continue;
      const b = (await res.json()) as BatchStatus;
      // Paused or failed: the page says why and what to do (the server writes it).
      if (b.status === 'paused' || b.status === 'failed') {
        window.location.replace(b.status === 'paused' ? '/batches?done=batch-paused' : '/batches');
        return;
      }
      row.dataset.status = b.status;
      // One balance on the page: every place that shows it takes the figure the batch's charges left.
      if (typeof b.balance === 'number') {
        for (const el of document.querySelectorAll('[data-balance]')) el.textContent = b.balance.toLocaleString('en-US');
      }
      const bar = row.querySelector('progress');
      if (bar) {
        bar.max = Math.max(1, b.rows_total);
        bar.value = b.rows_done;
      }
      const state = row.querySelector('.batch-state');
      if (state) state.textContent = `${b.status} · ${b.rows_done.toLocaleString('en-US')} / ${b.rows_total.toLocaleString('en-US')} rows${b.rows_failed ? ` · ${b.rows_failed} failed` : ''}`;
      const credits = row.querySelector('.batch-credits');
      if (credits) credits.textContent = b.credits_charged.toLocaleString('en-US');
      // (The download takes the place of a Resume form; the link to the batch's page beside it stays.)
      const result = row.querySelector('.batch-result .batch-download');
      if (result && b.status === 'completed' && !result.querySelector('a')) {
        const link = document.createElement('a');
        link.href = `/batches/${encodeURIComponent(row.dataset.batch ?? '')}/result`;
        link.setAttribute('download', '');
        link.textContent = 'Download CSV';
        result.replaceChildren(link, document.createTextNode(' · '));
      }
    } catch {
      // offline for a moment: the next round asks again
    }
  }
  settleNotices();
  setTimeout(() => void poll(), 1500);
}
void poll();
