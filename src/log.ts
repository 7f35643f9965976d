/** Structured JSON logs (pino). API keys never appear; e-mail addresses and phone numbers are masked. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'contact-validator' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['authorization', '*.authorization', 'api_key', '*.api_key'], censor: '[redacted]' },
    },
    destination,
  );
}

/** `jane.doe@example.com` -> `j***@example.com`: enough to follow a case, not enough to harvest. */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 1) return value.length ? `${value[0]}***` : '';
  return `${value[0]}***${value.slice(at).slice(0, 80)}`;
}

/** `+14155550123` -> `+1415****23`. */
export function maskPhone(value: string): string {
  const digits = value.replace(/[^\d+]/g, '');
  if (digits.length <= 6) return '***';
  return `${digits.slice(0, 5)}${'*'.repeat(Math.max(0, digits.length - 7))}${digits.slice(-2)}`;
}
