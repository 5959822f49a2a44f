-- checkout-server schema, Postgres flavour (kept in step with ../sqlite/0001_init.sql).
-- Times are Unix milliseconds (BIGINT), as on SQLite, so both backends compare the same
-- numbers; amounts minor units. No column can hold a card number
-- beyond first six / last four, and there is no column for a security code.

CREATE TABLE customers (
    id          TEXT PRIMARY KEY,
    email       TEXT,
    created_at  BIGINT NOT NULL
);

CREATE TABLE checkout_sessions (
    id                  TEXT PRIMARY KEY,
    client_secret_hash  TEXT NOT NULL CHECK (length(client_secret_hash) = 64),
    amount              BIGINT NOT NULL CHECK (amount >= 0),
    currency            TEXT NOT NULL CHECK (length(currency) = 3),
    reference           TEXT NOT NULL CHECK (length(reference) BETWEEN 1 AND 45),
    capture_mode        TEXT NOT NULL CHECK (capture_mode IN ('capture', 'authorize')),
    customer_id         TEXT REFERENCES customers (id),
    email               TEXT,
    plan_id             TEXT,
    description         TEXT,
    created_at          BIGINT NOT NULL,
    expires_at          BIGINT NOT NULL
);

CREATE TABLE payments (
    id                      TEXT PRIMARY KEY,
    session_id              TEXT NOT NULL REFERENCES checkout_sessions (id),
    customer_id             TEXT,
    kind                    TEXT NOT NULL,
    state                   TEXT NOT NULL,
    amount                  BIGINT NOT NULL CHECK (amount >= 0),
    currency                TEXT NOT NULL CHECK (length(currency) = 3),
    merchant_txn_ref        TEXT NOT NULL CHECK (length(merchant_txn_ref) BETWEEN 1 AND 45),
    gateway_transaction_id  TEXT UNIQUE,
    gateway_ref             BIGINT,
    response_code           BIGINT,
    decline_code            TEXT,
    card_brand              TEXT,
    card_bin                TEXT CHECK (card_bin ~ '^[0-9]{6}$'),
    card_last4              TEXT CHECK (card_last4 ~ '^[0-9]{4}$'),
    card_expiry_month       BIGINT CHECK (card_expiry_month BETWEEN 1 AND 12),
    card_expiry_year        BIGINT,
    saved_card_id           TEXT,
    captured_amount         BIGINT NOT NULL DEFAULT 0 CHECK (captured_amount BETWEEN 0 AND amount),
    refunded_amount         BIGINT NOT NULL DEFAULT 0 CHECK (refunded_amount BETWEEN 0 AND captured_amount),
    attempts                BIGINT NOT NULL DEFAULT 0,
    subscription_id         TEXT,
    webhook_token           TEXT NOT NULL,
    pending_since           BIGINT,
    review_deadline         BIGINT NOT NULL,
    next_check_at           BIGINT,
    lease_owner             TEXT,
    lease_until             BIGINT,
    created_at              BIGINT NOT NULL,
    updated_at              BIGINT NOT NULL
);

CREATE INDEX payments_newest ON payments (created_at DESC, id DESC);
CREATE INDEX payments_by_session ON payments (session_id, created_at DESC);
CREATE INDEX payments_by_customer ON payments (customer_id, created_at DESC);
CREATE INDEX payments_due ON payments (next_check_at) WHERE next_check_at IS NOT NULL;

CREATE TABLE gateway_attempts (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    payment_id       TEXT REFERENCES payments (id),
    subscription_id  TEXT,
    endpoint         TEXT NOT NULL,
    started_at       BIGINT NOT NULL,
    finished_at      BIGINT NOT NULL,
    latency_us       BIGINT NOT NULL,
    outcome          TEXT NOT NULL,
    http_status      BIGINT
);

CREATE INDEX gateway_attempts_by_payment ON gateway_attempts (payment_id, id);

CREATE TABLE webhook_events (
    id                      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    payment_id              TEXT NOT NULL REFERENCES payments (id),
    received_at             BIGINT NOT NULL,
    body_digest             TEXT NOT NULL CHECK (length(body_digest) = 64),
    gateway_transaction_id  TEXT,
    claimed_state           TEXT,
    claimed_amount          BIGINT,
    claimed_currency        TEXT,
    verdict                 TEXT NOT NULL,
    duplicate_of            BIGINT REFERENCES webhook_events (id)
);

-- One first delivery per (payment, body); repeats point at it through duplicate_of.
CREATE UNIQUE INDEX webhook_first_delivery
    ON webhook_events (payment_id, body_digest) WHERE duplicate_of IS NULL;

CREATE TABLE idempotency_records (
    scope            TEXT NOT NULL,
    key              TEXT NOT NULL,
    request_digest   TEXT NOT NULL CHECK (length(request_digest) = 64),
    status           TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response_status  BIGINT,
    response_body    TEXT,
    created_at       BIGINT NOT NULL,
    completed_at     BIGINT,
    PRIMARY KEY (scope, key)
);

CREATE INDEX idempotency_by_age ON idempotency_records (created_at);

CREATE TABLE saved_cards (
    id             TEXT PRIMARY KEY,
    customer_id    TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    gateway_token  TEXT NOT NULL,
    brand          TEXT NOT NULL,
    last4          TEXT NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
    expiry_month   BIGINT NOT NULL CHECK (expiry_month BETWEEN 1 AND 12),
    expiry_year    BIGINT NOT NULL,
    created_at     BIGINT NOT NULL,
    UNIQUE (customer_id, gateway_token)
);

CREATE TABLE customer_tokens (
    token_hash   TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
    customer_id  TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);

CREATE TABLE subscriptions (
    id                       TEXT PRIMARY KEY,
    gateway_subscription_id  TEXT NOT NULL UNIQUE,
    customer_id              TEXT,
    plan_id                  TEXT NOT NULL,
    session_id               TEXT REFERENCES checkout_sessions (id),
    first_payment_id         TEXT REFERENCES payments (id),
    amount                   BIGINT NOT NULL CHECK (amount >= 0),
    currency                 TEXT NOT NULL CHECK (length(currency) = 3),
    status                   TEXT NOT NULL,
    completed_cycles         BIGINT NOT NULL CHECK (completed_cycles >= 0),
    next_payment_at          BIGINT,
    last_payment_status      TEXT,
    next_poll_at             BIGINT,
    lease_owner              TEXT,
    lease_until              BIGINT,
    created_at               BIGINT NOT NULL,
    updated_at               BIGINT NOT NULL
);

CREATE INDEX subscriptions_newest ON subscriptions (created_at DESC, id DESC);
CREATE INDEX subscriptions_by_customer ON subscriptions (customer_id, created_at DESC);
CREATE INDEX subscriptions_due ON subscriptions (next_poll_at) WHERE next_poll_at IS NOT NULL;

CREATE TABLE subscription_cycles (
    subscription_id         TEXT NOT NULL REFERENCES subscriptions (id),
    cycle                   BIGINT NOT NULL CHECK (cycle >= 1),
    gateway_transaction_id  TEXT,
    amount                  BIGINT NOT NULL CHECK (amount >= 0),
    currency                TEXT NOT NULL CHECK (length(currency) = 3),
    status                  TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
    charged_at              BIGINT NOT NULL,
    recorded_at             BIGINT NOT NULL,
    PRIMARY KEY (subscription_id, cycle)
);
