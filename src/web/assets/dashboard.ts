/**
 * The dashboard's only script, and every page works without it: copy buttons, a confirmation before revoking or
 * removing, the upload's progress bar, and live progress of running batches. Requests carry the page's CSRF token.
 */

const csrf = document.body.dataset.csrf ?? '';

// Copy a new key to the clipboard.
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const input = document.getElementById(button.dataset.copy ?? '') as HTMLInputElement | null;
    if (!input) return;
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
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
interface BatchStatus { status: string; rows_done: number; rows_total: number; rows_failed: number; credits_charged: number }
const running = () => [...document.querySelectorAll<HTMLTableRowElement>('tr[data-batch]')]
  .filter((row) => ['queued', 'running'].includes(row.dataset.status ?? ''));
async function poll(): Promise<void> {
  const rows = running();
  if (rows.length === 0) return;
  for (const row of rows) {
    try {
      const res = await fetch(`/batches/${encodeURIComponent(row.dataset.batch ?? '')}/status`, { headers: { Accept: 'application/json' } });
      if (!res.ok) continue;
      const b = (await res.json()) as BatchStatus;
      row.dataset.status = b.status;
      const bar = row.querySelector('progress');
      if (bar) {
        bar.max = Math.max(1, b.rows_total);
        bar.value = b.rows_done;
      }
      const state = row.querySelector('.batch-state');
      if (state) state.textContent = `${b.status} · ${b.rows_done.toLocaleString('en-US')} / ${b.rows_total.toLocaleString('en-US')} rows${b.rows_failed ? ` · ${b.rows_failed} failed` : ''}`;
      const credits = row.querySelector('.batch-credits');
      if (credits) credits.textContent = b.credits_charged.toLocaleString('en-US');
      const result = row.querySelector('.batch-result');
      if (result && b.status === 'completed' && !result.querySelector('a')) {
        const link = document.createElement('a');
        link.href = `/batches/${encodeURIComponent(row.dataset.batch ?? '')}/result`;
        link.setAttribute('download', '');
        link.textContent = 'Download CSV';
        result.replaceChildren(link);
      }
    } catch {
      // offline for a moment: the next round asks again
    }
  }
  setTimeout(() => void poll(), 1500);
}
void poll();
