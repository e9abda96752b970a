// Schema of metering.db, one entry per version (PRAGMA user_version counts the applied ones).

export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE developers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    organization TEXT,
    use_case TEXT,
    plan TEXT NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'team', 'institution')),
    suspended_at INTEGER,
    created_at INTEGER NOT NULL
  );

  -- Only the SHA-256 of the whole key and its 17-character display prefix: the plaintext is never stored.
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    developer_id TEXT NOT NULL REFERENCES developers (id),
    key_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    name TEXT NOT NULL,
    scope TEXT NOT NULL DEFAULT 'read',
    created_at INTEGER NOT NULL,
    revoked_at INTEGER,
    expires_at INTEGER
  );
  CREATE INDEX api_keys_developer ON api_keys (developer_id);
  CREATE INDEX api_keys_prefix ON api_keys (prefix);

  -- One row per key, endpoint and UTC day. Units are numbered 1..limit; next_unit is the lowest number
  -- never granted, free the returned numbers not yet granted again (JSON ranges), used = granted - returned.
  CREATE TABLE quota_days (
    key_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    day TEXT NOT NULL,
    next_unit INTEGER NOT NULL,
    used INTEGER NOT NULL,
    free TEXT NOT NULL,
    PRIMARY KEY (key_id, endpoint, day)
  ) WITHOUT ROWID;

  -- The numbers each lease holder (worker connection) was granted and has not returned (JSON ranges), and
  -- its last grant by request id: a worker whose reply was lost (metering killed after the commit) asks
  -- again with the same id and receives the same units instead of losing them.
  CREATE TABLE quota_holds (
    key_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    day TEXT NOT NULL,
    holder TEXT NOT NULL,
    worker TEXT NOT NULL,
    ranges TEXT NOT NULL,
    last_request TEXT,
    last_grant TEXT,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (key_id, endpoint, day, holder)
  ) WITHOUT ROWID;

  -- Key-creation throttle: one row per POST /api/v1/developers, refused ones included.
  CREATE TABLE registration_attempts (ip TEXT NOT NULL, at INTEGER NOT NULL);
  CREATE INDEX registration_attempts_ip_at ON registration_attempts (ip, at);
  CREATE INDEX registration_attempts_at ON registration_attempts (at);
  `,
  // Plans belong to keys: a key issued through POST /api/v1/developers is always free, even for a developer
  // whose earlier keys the operator raised (otherwise knowing a paying developer's email buys a paid key).
  `
  ALTER TABLE api_keys ADD COLUMN plan TEXT NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'team', 'institution'));
  UPDATE api_keys SET plan = (SELECT d.plan FROM developers d WHERE d.id = api_keys.developer_id);
  `,
  // Daily usage is kept for USAGE_RETENTION_DAYS: the daily prune finds the old days through this index
  // instead of reading the whole table (rows are written once a day per key and endpoint; updates leave it).
  `
  CREATE INDEX quota_days_day ON quota_days (day);
  `,
  // outstanding: the part of a holder's ranges granted as blocks and not yet known to be used (it may still
  // come back); emptied when the holder drains its lease. Existing holds count as outstanding until then.
  // last_admit*: a holder's last request counted one at a time, answered again (not counted again) when the
  // holder repeats it after a lost reply.
  `
  ALTER TABLE quota_holds ADD COLUMN outstanding TEXT NOT NULL DEFAULT '[]';
  UPDATE quota_holds SET outstanding = ranges;
  ALTER TABLE quota_holds ADD COLUMN last_admit TEXT;
  ALTER TABLE quota_holds ADD COLUMN last_admit_unit INTEGER;
  ALTER TABLE quota_holds ADD COLUMN last_admit_used INTEGER;
  `,
  // Key provenance: registration is idempotent on email (spec), so anyone who knows an address can add a key to
  // that developer. Each key records the name, organisation and client address it was registered with, for the
  // operator to see (developers show, keys list) before raising keys with set-plan. A key issued with its
  // developer's first registration was made with the developer's own name and organisation; the address of
  // older keys is unknown (NULL).
  `
  ALTER TABLE api_keys ADD COLUMN registrant_name TEXT;
  ALTER TABLE api_keys ADD COLUMN registrant_organization TEXT;
  ALTER TABLE api_keys ADD COLUMN registrant_address TEXT;
  UPDATE api_keys SET
    registrant_name = (SELECT d.name FROM developers d WHERE d.id = api_keys.developer_id AND d.created_at = api_keys.created_at),
    registrant_organization = (SELECT d.organization FROM developers d WHERE d.id = api_keys.developer_id AND d.created_at = api_keys.created_at);
  `,
  // One row rewritten by the storage probe (storage-health.ts): whether metering.db still takes commits when no
  // request has written for a while, or after a write failed for lack of space.
  `
  CREATE TABLE storage_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);
  `,
];
