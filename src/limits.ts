// Every documented limit and lifetime, in one place: the code enforces these values and the OpenAPI
// document (http/openapi.ts) describes them from the same object, so the contract cannot drift.

export const LIMITS = {
  accessToken: {
    /** Lifetime of an access token (JWT). */
    ttlSeconds: 15 * 60,
    algorithm: 'HS256',
    /** Minimum HS256 key length. */
    minKeyBytes: 32,
  },
  session: {
    /** A session unused for this long is expired. */
    idleSeconds: 30 * 60,
    /** A session never lives longer than this (one clinic shift). */
    absoluteSeconds: 12 * 60 * 60,
    /** Activity is recorded at most this often per session (the idle clock's granularity). */
    activityRecordIntervalSeconds: 5 * 60,
  },
  challenge: {
    /** Login challenge (second factor pending) lifetime. */
    ttlSeconds: 5 * 60,
    /** Wrong codes before the challenge dies. */
    maxCodeAttempts: 5,
    /** Challenges a user may hold unused and unexpired at once, per client kind (without a device token, or per device). */
    maxOpenPerUser: 5,
    randomBytes: 32,
  },
  deviceToken: {
    /** A device token (returned by a completed sign-in, presented at the next login) is trusted this long. */
    ttlSeconds: 30 * 24 * 60 * 60,
    /** Trusted devices kept per user: a new one beyond this retires the oldest. */
    maxPerUser: 10,
  },
  activation: {
    /** An invitation's one-time activation token is valid this long (a new one replaces it). */
    ttlSeconds: 72 * 60 * 60,
  },
  invitations: {
    /**
     * Invitations (POST /usuarios) send the platform's e-mail: at most this many per company and per inviting person an
     * hour (429 with Retry-After), counted per service instance. A pending membership's token lives `activation.ttlSeconds`.
     */
    perCompanyPerHour: 50,
    perInviterPerHour: 20,
  },
  apiClients: {
    /** A client-credentials access token lives this long; revoking the client ends it at once. */
    tokenTtlSeconds: 10 * 60,
    /** After a rotation the previous secret keeps working this long by default, so a program can switch without downtime. */
    defaultGraceSeconds: 24 * 60 * 60,
    maxGraceSeconds: 7 * 24 * 60 * 60,
    /** Token requests per client address per minute, and wrong secrets per client and address per window (never a lock of the client). */
    perIpPerMinute: 20,
    clientFailuresPerWindow: 10,
    windowSeconds: 15 * 60,
  },
  throttling: {
    login: {
      perIpPerMinute: 20,
      /** Consecutive failures of one account before growing delays start. */
      accountFailuresBeforeDelay: 5,
      /** Upper bound of failures per account per hour, whatever the delays. */
      accountMaxFailuresPerHour: 100,
      /** Growing delays between attempts (2, 4, 8 ... s after the threshold) stop growing here. */
      accountLongestDelaySeconds: 60,
    },
    verify2fa: {
      /** Codes per client address per minute, across every challenge and account. */
      perIpPerMinute: 60,
      perChallenge: 5,
      userFailuresPerWindow: 10,
      windowSeconds: 15 * 60,
    },
  },
  body: {
    /** Largest accepted JSON request body. */
    maxBytes: 256 * 1024,
    /** The same limit in koa-bodyparser's notation. */
    jsonLimit: '256kb',
  },
  pagination: {
    defaultLimit: 50,
    maxLimit: 200,
  },
  idempotency: {
    /** How long a completed request's answer is replayed for the same key. */
    ttlSeconds: 24 * 60 * 60,
    keyMaxLength: 255,
  },
  readYourWrites: {
    /** Longest a query waits for its projection to reach `minPosition`. */
    maxWaitMs: 5_000,
  },
  startupWrites: {
    /** Longest a write waits, after a start, for the event store to accept appends before it answers 503 + Retry-After. */
    maxWaitMs: 2_000,
    /** Retry-After of that 503. */
    retryAfterSeconds: 1,
  },
  preparedPages: {
    /** List pages kept serialized between changes of their collection (~20 KB each at 50 patients), least recently used out first. */
    maxEntries: 128,
    /** Records read one by one kept serialized the same way (a session with ~120 readings: ~50 KB), in their own cache. */
    maxRecords: 256,
  },
  keptPolicies: {
    /** Companies whose projected policy the views keep between changes of it (a few KB each), least recently used out first. */
    maxCompanies: 1024,
  },
  nursingNotes: {
    /** A read of a note shows its latest versions up to this many; every version is paged at /versiones. */
    versionsInline: 20,
  },
  patientRecord: {
    /**
     * Entries of each list the patient document keeps: the latest, settled ones (ended coverages, failed or removed
     * accesses) leaving first. `entryCounts` tells how many there are in all; every one is paged at /pacientes/{id}/<list>.
     */
    dryWeightHistory: 10,
    serology: 30,
    allergies: 100,
    coverages: 20,
    vascularAccesses: 20,
  },
  locations: {
    /** Rooms (salas) one location (sede) holds: the location document stays small. */
    maxRooms: 50,
    /** Dialysis stations (puestos) one location holds. */
    maxStations: 300,
  },
  documentGuard: {
    /** A document claim whose patient never appeared (a crash between claim and append) may be taken over after this. */
    orphanedClaimGraceSeconds: 10 * 60,
  },
  uniqueClaims: {
    /**
     * A claim on a unique value (job position code, staff document, user linked to staff) whose record never appeared
     * (a crash between claim and append) may be taken over after this.
     */
    orphanedClaimGraceSeconds: 10 * 60,
  },
  staffRecord: {
    /** `?licencia=por-vencer` looks this many days ahead unless `dias` says otherwise... */
    licenceExpiringDefaultDays: 30,
    /** ...and at most this many. */
    licenceExpiringMaxDays: 365,
    /** A staff record shows its latest serology results and HBV vaccine doses up to these counts; the history has all. */
    serologyInline: 40,
    vaccinationInline: 20,
  },
  accessAudit: {
    flushIntervalMs: 250,
    maxBatch: 500,
    /** Largest single append of audit events (EventStoreDB refuses appends over 1 MiB). */
    maxAppendBytes: 256 * 1024,
    /** User agents are kept up to this many characters. */
    userAgentMaxChars: 512,
    /** Appends of an entry tried this often before it is set aside (logged at error level with its content). */
    maxAttempts: 5,
    /** A stream whose append failed is retried after the flush interval doubled per failure, at most this long. */
    retryMaxDelayMs: 30_000,
    /**
     * Repeated reads of one record by the same actor, session, address and client within this window become one
     * event with a count and the first and last time (the window is also the longest an entry waits to be written).
     */
    coalesceWindowMs: 10_000,
    /** Patients named by one entry: a read naming more (a long report) leaves several entries. */
    patientIdsPerEntry: 100,
    /** The record id a refused read asked for is kept up to this many characters (a 403 comes before validation). */
    recordIdMaxChars: 128,
  },
  projections: {
    /** GET /health answers 503 once a projection has been failing (and retrying) for longer than this. */
    unhealthyAfterFailedSeconds: 5 * 60,
    /** A failed projection retries after this delay, doubled at each failed retry (with jitter)... */
    retryInitialMs: 250,
    /** ...up to this. */
    retryMaxMs: 30_000,
    /** Several instances on one MongoDB: the projector lease lasts this long unless renewed... */
    leaseTtlSeconds: 15,
    /** ...and is renewed (or, by a standby instance, tried) this often. */
    leaseRenewSeconds: 5,
    /** A standby instance reads the projector's checkpoints this often (read-your-writes waits follow them). */
    standbyFollowMs: 200,
    /** A checkpoint that moved over events its projection skips is persisted after this (they need no write each). */
    laggingCheckpointMs: 100,
    /** Events per write-back while replaying the log (start, rebuild): documents changed by many events are written once. */
    replayBatchEvents: 20_000,
    /** ...and during a rebuild (one projection): fewer commits, each index page of the fresh tables written fewer times. */
    rebuildBatchEvents: 50_000,
    /** A fresh build holds at most this many documents per collection from one write-back to the next (memory bound). */
    freshBuildHeldDocs: 2_000,
  },
  audit: {
    /** Minimum retention of the event log (audit trail), in years: the policy's floor of retention/auditEntriesYears. */
    retentionYears: 15,
  },
  newPassword: {
    /** A new password has at least this many characters, counted as Unicode code points (ASVS 5.0 V6.2). */
    minChars: 12,
    /** ...and at most this many (ASVS 5.0 V6.2 asks that at least 64 be allowed). */
    maxChars: 128,
    /** A part of the e-mail's local part or of the user's name this long or longer may not appear in the password. */
    identityPartMinChars: 4,
  },
  taxId: {
    /** A tax id of a country without a check-digit rule (type OTHER) has this many characters, [A-Z0-9-]... */
    otherMinChars: 3,
    /** ...up to this many. */
    otherMaxChars: 30,
    /** Longest tax id accepted as typed, separators included (refused before any pattern runs over it). */
    maxInputChars: 64,
  },
  filtrosDialisis: {
    /** A dialyzer this many uses (or fewer) short of its maximum is listed in the alerts. */
    nearMaxUsesMargin: 2,
    /** A last TCV below the policy threshold plus this many points is listed as falling. */
    fallingTcvMarginPercent: 5,
    /** Dialyzers in service a floor query (alerts, ready for a patient) looks at, at most. */
    floorScanMax: 2000,
  },
  monitores: {
    /** `GET /monitores?maintenanceDueInDays=` judges at most this many machines of the company (the plan is today's policy, not stored). */
    floorScanMax: 5000,
  },
  renders: {
    /** Session sheets (PDF) of one company rendering at once (running or waiting for a worker of the pool)... */
    perCompany: 2,
    /** ...and waiting behind those; one more answers 429 with Retry-After. */
    queuedPerCompany: 8,
    /** Renders waiting across every company; one more answers 503 with Retry-After. */
    queuedTotal: 64,
    retryAfterSeconds: 2,
    /** A render still running after this is abandoned (its worker replaced) and answers 503. */
    jobTimeoutMs: 60_000,
    /** Rendered sheets kept (by session, revision and content), least recently used out first. */
    cacheMaxBytes: 64 * 1024 * 1024,
  },
  sessionClaims: {
    /** A machine, dialyzer or bloodline claimed for a session that has not started this long after is released. */
    orphanGraceSeconds: 120,
    /** The reconciliation of such claims runs at start and then this often. */
    reconcileEverySeconds: 60,
    /** Claimed records of each kind one run looks at per company, at most. */
    scanMax: 1000,
  },
  bloodlines: {
    /** Lines of one kind listed for a patient by the ready-for-next-session query (not discarded ones only). */
    readyListMax: 50,
    /** The near-maximum query lists lines with at most this many uses left unless `margen` says otherwise. */
    nearMaximumDefaultMargin: 1,
  },
  shiftSeats: {
    /** A seat claimed for a session whose stream never appeared (a crash between claim and schedule) is released after this. */
    orphanGraceSeconds: 10 * 60,
  },
} as const;

export type Limits = typeof LIMITS;
