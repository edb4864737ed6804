-- The nested app's database, loaded by the lab into the database "nested" as PostgreSQL's
-- superuser. A posting adds to one of 10,000 accounts (few requests meet on a row) and its
-- audit appends a row.
CREATE ROLE nested LOGIN PASSWORD 'nested';
ALTER SCHEMA public OWNER TO nested;

CREATE TABLE account (
    id      integer PRIMARY KEY,
    balance bigint NOT NULL
);
INSERT INTO account (id, balance) SELECT a, 0 FROM generate_series(1, 10000) AS a;

CREATE TABLE audit (
    id      bigserial PRIMARY KEY,
    account integer NOT NULL,
    at      timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE account OWNER TO nested;
ALTER TABLE audit OWNER TO nested;
ANALYZE account;
