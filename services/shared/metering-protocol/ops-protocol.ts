// Zod schemas of the operator requests (ops CLI ⇄ metering service).
import { z } from 'zod';

import { planSchema, type Rpc } from './protocol.ts';
import { SUBJECTS } from './subjects.ts';

const email = z.string().min(1).max(200).transform((v) => v.trim().toLowerCase());
const keyPrefix = z.string().min(1).max(64);
const dayText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

export const developerRow = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  organization: z.string().nullable(),
  useCase: z.string().nullable(),
  plan: planSchema,
  status: z.enum(['active', 'suspended']),
  createdAt: z.string(),
  keys: z.number().int(),
});
export type DeveloperRow = z.infer<typeof developerRow>;

export const keyRow = z.object({
  id: z.string(),
  prefix: z.string(),
  name: z.string(),
  scope: z.string(),
  /** The plan the key is metered on. */
  plan: planSchema,
  status: z.enum(['usable', 'revoked', 'expired']),
  createdAt: z.string(),
  /** The name, organisation and client address the key was registered with (null where unknown). */
  registrantName: z.string().nullable(),
  registrantOrganization: z.string().nullable(),
  registrantAddress: z.string().nullable(),
  revokedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type KeyRow = z.infer<typeof keyRow>;

export const usageRow = z.object({
  keyPrefix: z.string(),
  keyName: z.string(),
  endpoint: z.string(),
  /** Units counted against the limit: granted minus returned, the units in `leased` included. */
  used: z.number().int(),
  /** Of `used`, units in blocks that workers hold and may not have served yet (they come back if unused). */
  leased: z.number().int().default(0),
  /** The key's own daily limit (plans belong to keys). */
  limit: z.number().int(),
});
export type UsageRow = z.infer<typeof usageRow>;

const byEmail = z.object({ email });
const developerReply = z.object({ developer: developerRow });
const keyReply = z.object({ key: keyRow });

const rpc = <Req extends z.ZodTypeAny, Rep extends z.ZodTypeAny>(subject: string, request: Req, reply: Rep) => ({
  subject,
  request,
  reply,
});

export const OPS = {
  developersList: rpc(SUBJECTS.opsDevelopersList, z.object({}), z.object({ developers: z.array(developerRow) })),
  developersShow: rpc(SUBJECTS.opsDevelopersShow, byEmail, z.object({ developer: developerRow, keys: z.array(keyRow) })),
  developersSetPlan: rpc(
    SUBJECTS.opsDevelopersSetPlan,
    z.object({
      email,
      plan: planSchema,
      /** Display prefixes of the keys to change; without them, the developer's one usable key. */
      keys: z.array(keyPrefix).min(1).max(100).optional(),
      /** Every key of the developer, usable or not. */
      allKeys: z.boolean().optional(),
    }),
    z.object({ developer: developerRow, changed: z.array(keyRow), unchanged: z.array(keyRow) }),
  ),
  developersSuspend: rpc(SUBJECTS.opsDevelopersSuspend, byEmail, developerReply),
  developersReinstate: rpc(SUBJECTS.opsDevelopersReinstate, byEmail, developerReply),
  keysList: rpc(SUBJECTS.opsKeysList, byEmail, z.object({ keys: z.array(keyRow) })),
  keysRevoke: rpc(SUBJECTS.opsKeysRevoke, z.object({ keyPrefix }), keyReply),
  keysExpire: rpc(
    SUBJECTS.opsKeysExpire,
    z.object({ keyPrefix, at: z.string().datetime({ offset: true }).optional() }),
    keyReply,
  ),
  usage: rpc(
    SUBJECTS.opsUsage,
    z.object({ email, date: dayText.optional() }),
    z.object({ email: z.string(), date: z.string(), plan: planSchema, rows: z.array(usageRow) }),
  ),
  backup: rpc(
    SUBJECTS.opsBackup,
    z.object({ file: z.string().min(1) }),
    z.object({ file: z.string(), bytes: z.number().int() }),
  ),
} satisfies Record<string, Rpc<z.ZodTypeAny, z.ZodTypeAny>>;
