/**
 * JSON bodies only, at most 16 KiB (docs/api.md#problems). Express would skip a body of another content type silently and
 * answer its own parse errors with HTML; here both become problems: 415 for the type, 400/413 from the parser errors
 * (translated in error-handler.ts).
 */
import crypto from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { Problem } from '../problems.js';

export const BODY_LIMIT_BYTES = 16 * 1024;

const parseJson = express.json({
  limit: BODY_LIMIT_BYTES,
  strict: true,
  type: () => true,
  verify: (_req, res, buf) => {
    (res as Response).locals.context.rawBody = buf;
  },
});

export function jsonBody() {
  return (req: Request, res: Response, next: NextFunction) => {
    const type = req.headers['content-type'];
    // The common spellings first, without parsing the media type.
    const plainJson = type === 'application/json' || type === 'application/json; charset=utf-8';
    if (!plainJson && !req.is('application/json') && !req.is('application/*+json')) {
      const got = req.get('content-type');
      throw new Problem(
        'unsupported-media-type',
        `${got ? `Content-Type ${JSON.stringify(got.slice(0, 100))} is not accepted` : 'Content-Type is missing'}: send the body as JSON with "Content-Type: application/json".`,
        {},
        { 'Accept-Post': 'application/json' },
      );
    }
    parseJson(req, res, next);
  };
}

/** SHA-256 of the raw body: what Idempotency-Key compares. */
export function bodyFingerprint(res: Response): string {
  return crypto.createHash('sha256').update(res.locals.context.rawBody ?? Buffer.alloc(0)).digest('hex');
}
