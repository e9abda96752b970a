// The operator's contact (OPERATOR_CONTACT): an email address or an https URL, checked once at start, so that
// every "contact the operator" on the pages and in quota_exceeded can say how.
import { z } from 'zod';

export interface OperatorContact {
  /** As configured: the address or the URL. */
  readonly text: string;
  /** mailto: for an address, the URL itself otherwise. */
  readonly href: string;
}

const email = z.string().email();
function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * OPERATOR_CONTACT as the env schema reads it: unset or empty means none (the pages then say so); anything
 * else must be an email address or an https URL, so that a typo stops the worker instead of printing a broken
 * link on every page.
 */
export const operatorContactEnv = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): OperatorContact | undefined => {
    if (value === undefined || value === '') return undefined;
    if (email.safeParse(value).success) return { text: value, href: `mailto:${value}` };
    if (isHttpsUrl(value)) return { text: value, href: new URL(value).href };
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be an email address (ops@example.org) or an https:// URL' });
    return z.NEVER;
  });
