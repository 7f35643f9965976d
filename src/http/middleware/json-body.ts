/**
 * JSON bodies only, at most 16 KiB (docs/api.md#problems). Express would skip a body of another content type silently and
 * answer its own parse errors with HTML; here both become problems: 415 for the type, 400/413 from the parser errors
 * (translated in error-handler.ts).
 */
import crypto from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { Problem } from '../problems.js';

export const BODY_LIMIT_BYTES = 16 * 1024;

const jsonParser = (limit: number) => express.json({
  limit,
  strict: true,
  type: () => true,
  verify: (_req, res, buf) => {
    (res as Response).locals.context.rawBody = buf;
  },
});

/**
 * `limit` and `tooLarge`: an endpoint whose body is a list (POST /v1/validate/batch) takes more than 16 KiB, and says
 * its own limit when a body passes it (the catalogue's `payload-too-large` names 16 KiB).
 */
export function jsonBody({ limit = BODY_LIMIT_BYTES, tooLarge }: { limit?: number; tooLarge?: () => Problem } = {}) {
  const parse = jsonParser(limit);
  const parseJson = tooLarge
    ? (req: Request, res: Response, next: NextFunction) =>
      parse(req, res, (err?: unknown) => next((err as { type?: string } | undefined)?.type === 'entity.too.large' ? tooLarge() : err))
    : parse;
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
