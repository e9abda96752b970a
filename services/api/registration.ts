// The POST /api/v1/developers body schema, shared by the API route and the website's sign-up form.
import { z } from 'zod';

import { canonicalEmail, EMAIL_SHAPE, INVISIBLE_MESSAGE, VISIBLE_ONLY } from '../shared/email.ts';

/** Spec (POST /api/v1/developers): name and email up to 200; organization and useCase truncated. */
export const NAME_MAX = 200;
export const EMAIL_MAX = 200;
export const ORGANIZATION_MAX = 200;
export const USE_CASE_MAX = 500;
export const KEY_NAME_MAX = 100;
export const DEFAULT_KEY_NAME = 'default';

const optionalText = (max: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : v.trim().slice(0, max) || undefined));

export const registrationSchema = z.object({
  name: z
    .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .trim()
    .min(1, 'is required')
    .max(NAME_MAX, `must be at most ${NAME_MAX} characters`),
  email: z
    .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .trim()
    .min(1, 'is required')
    .max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`)
    .regex(VISIBLE_ONLY, INVISIBLE_MESSAGE)
    .regex(EMAIL_SHAPE, 'must be an email address')
    .transform(canonicalEmail),
  organization: optionalText(ORGANIZATION_MAX),
  useCase: optionalText(USE_CASE_MAX),
  keyName: optionalText(KEY_NAME_MAX).transform((v) => v ?? DEFAULT_KEY_NAME),
});
export type RegistrationBody = z.infer<typeof registrationSchema>;
