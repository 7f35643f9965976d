/**
 * Every relative link in the project's Markdown files resolves to a file or folder of the repository that exists (and,
 * for a `#anchor` into a Markdown file, to one of its headings): the README and docs stay navigable as files move.
 * The repository stands alone: no tracked file points at a folder beside the checkout, and what the service writes
 * under data/ (databases, uploaded customer files) is never committed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function markdownFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: root, encoding: 'utf8' });
  return tracked.split('\n').filter(Boolean).filter((f) => fs.existsSync(path.join(root, f)));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (m) anchors.add(m[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
  }
  return anchors;
}

describe('links in the Markdown files', () => {
  it('When a Markdown file links to another file of the project, then that file exists', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue; // URLs and in-page anchors
        const [relative, anchor] = target.split('#');
        const resolved = path.resolve(path.dirname(path.join(root, file)), decodeURIComponent(relative));
        if (!resolved.startsWith(root + path.sep)) broken.push(`${file}: ${target} (outside the repository)`);
        else if (!fs.existsSync(resolved)) broken.push(`${file}: ${target}`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the repository stands alone', () => {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

  it('When every tracked file is read, then none refers to a folder beside the checkout or to the outside specification', () => {
    // The sibling folder is spelled from its parts so that this file does not itself mention it.
    const siblingFolder = ['..', 'shared'].join('/');
    const patterns = [siblingFolder, 'CONTRACT.md', 'CONTRACT §', 'CONTRACT:'].flatMap((p) => ['-e', p]);
    // git grep answers 1 when nothing matches; this file names the patterns and is left out.
    let found = '';
    try {
      found = git('grep', '-n', '-F', '-I', ...patterns, '--', '.', `:!${path.relative(root, import.meta.filename)}`);
    } catch (error) {
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(found.split('\n').filter(Boolean)).toEqual([]);
  });

  it('When the service writes under data/, then git ignores it, and the engines\' shipped data folders stay tracked', () => {
    const ignored = (file: string) => {
      try {
        git('check-ignore', '-q', '--no-index', file);
        return true;
      } catch (error) {
        if ((error as { status?: number }).status !== 1) throw error;
        return false;
      }
    };
    expect(ignored('data/contact-validator.sqlite')).toBe(true);
    expect(ignored('data/batches/batch_0123456789abcdef/input.csv')).toBe(true);
    expect(ignored('src/validation/address/data/us-zip-codes.tsv')).toBe(false);
    expect(ignored('test/fixtures/email/isemail-tests.xml')).toBe(false);
  });
});
