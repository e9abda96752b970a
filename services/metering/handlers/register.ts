// dict.metering.v1.register: throttles per IP, then creates the developer (idempotent on email) and a key, in
// the registrations' own group commit (one transaction and one fsync for the registrations of an event-loop
// turn), with a bound on how many may wait for it.
import { randomBytes } from 'node:crypto';

import type { z } from 'zod';

import { canonicalEmail, emailProblem } from '../../shared/email.ts';
import { displayPrefix, generateApiKey, hashApiKey } from '../../shared/metering-protocol/keys.ts';
import type { registerReply, RegisterRequest } from '../../shared/metering-protocol/protocol.ts';
import { ServiceFault, type MeteringContext } from '../context.ts';

/** Spec (POST /api/v1/developers): truncation bounds and the default display name. */
const ORGANIZATION_MAX = 200;
const USE_CASE_MAX = 500;
const KEY_NAME_MAX = 100;
const DEFAULT_KEY_NAME = 'default';
/**
 * Registrations waiting for their group commit, at most: beyond, one is refused at once (`busy`), so that
 * a flood from many addresses can neither queue without bound nor make one commit long enough to hold up the
 * leases that share this thread (a registration's transaction takes tens of microseconds).
 */
export const MAX_PENDING_REGISTRATIONS = 64;
const RATE_LIMITED = 'too many key requests from this address';

export function handleRegister(ctx: MeteringContext, req: RegisterRequest): Promise<z.infer<typeof registerReply>> {
  const now = ctx.now();
  // Checked first and counted even when refused (spec: every request counts), in memory: nothing is written.
  if (!ctx.throttle.attempt(req.clientIp, now)) throw new ServiceFault('rate_limited', RATE_LIMITED);
  const email = canonicalEmail(req.input.email);
  const problem = emailProblem(email);
  if (problem !== undefined) throw new ServiceFault('invalid_registration', `Invalid parameter 'email': ${problem}`, 'email');
  if (ctx.accountCommits.pending >= MAX_PENDING_REGISTRATIONS) throw new ServiceFault('busy', 'registrations are busy: try again shortly');
  // The group's transaction is IMMEDIATE: another metering process cannot insert the same email, or a key of
  // the same address, between this one's read and its insert.
  return ctx.accountCommits.run(() => create(ctx, req, email, now));
}

function create(ctx: MeteringContext, req: RegisterRequest, email: string, now: number): z.infer<typeof registerReply> {
  const text = (v: string | undefined, max: number) => v?.trim().slice(0, max) || null;
  return ctx.db.transaction(() => {
    if (!ctx.throttle.issue(req.clientIp, now)) throw new ServiceFault('rate_limited', RATE_LIMITED);
    let developer = ctx.accounts.developerByEmail(email);
    if (!developer) {
      ctx.accounts.insertDeveloper({
        id: `dev_${randomBytes(12).toString('hex')}`,
        name: req.input.name.trim(),
        email,
        organization: text(req.input.organization, ORGANIZATION_MAX),
        use_case: text(req.input.useCase, USE_CASE_MAX),
        created_at: now,
      });
      developer = ctx.accounts.developerByEmail(email);
      if (!developer) throw new Error('developer row missing after insert');
    }
    // The plaintext lives only in this reply; the database gets its hash and display prefix.
    const apiKey = generateApiKey();
    ctx.accounts.insertKey({
      id: `key_${randomBytes(12).toString('hex')}`,
      developer_id: developer.id,
      key_hash: hashApiKey(apiKey),
      prefix: displayPrefix(apiKey),
      name: text(req.input.keyName, KEY_NAME_MAX) ?? DEFAULT_KEY_NAME,
      created_at: now,
      // Who asked for this key, which need not be who registered the email first (registration is idempotent
      // on email): shown to the operator by developers show, keys list and set-plan.
      registrant_name: req.input.name.trim(),
      registrant_organization: text(req.input.organization, ORGANIZATION_MAX),
      registrant_address: req.clientIp,
    });
    return {
      // The issued key is on the free plan whatever the developer's other keys are on (spec: always free).
      developer: { id: developer.id, name: developer.name, email: developer.email, plan: 'free' as const },
      apiKey,
      keyPrefix: displayPrefix(apiKey),
    };
  })();
}
