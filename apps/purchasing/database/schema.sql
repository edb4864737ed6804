-- The purchasing app's database, loaded by the lab into the database "purchasing" as
-- PostgreSQL's superuser; the app connects as "purchasing". ECperf's scheduleWorkOrder in
-- miniature (article 002, slides 8-9): a work order takes parts from the inventory and, for
-- what it takes, sends a purchase order to a supplier.

CREATE ROLE purchasing LOGIN PASSWORD 'purchasing';
ALTER SCHEMA public OWNER TO purchasing;

-- The inventory: every work order updates the row of the part it takes, so two work orders for
-- one part wait for each other until the first commits (the locks the send may hold).
CREATE TABLE part (
    id      integer PRIMARY KEY,
    on_hand bigint NOT NULL
);
INSERT INTO part (id, on_hand) SELECT p, 1000000000 FROM generate_series(1, 1000) AS p;
ALTER TABLE part OWNER TO purchasing;

CREATE SEQUENCE work_order_id;
ALTER SEQUENCE work_order_id OWNER TO purchasing;

CREATE TABLE work_order (
    id      bigint PRIMARY KEY,
    epoch   bigint NOT NULL,
    part_id integer NOT NULL,
    qty     integer NOT NULL
);
ALTER TABLE work_order OWNER TO purchasing;

-- The purchase order of each work order (its id is the work order's), committed with it, and
-- the moment it was written (the clock, not the transaction's start), from which a delivery's
-- delay is counted.
CREATE TABLE purchase_order (
    id         bigint PRIMARY KEY,
    epoch      bigint NOT NULL,
    part_id    integer NOT NULL,
    qty        integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX purchase_order_epoch ON purchase_order (epoch);
ALTER TABLE purchase_order OWNER TO purchasing;

-- The outbox (send = outbox): a row per purchase order, in the work order's transaction;
-- the poller claims rows (claimed_at) and a sender marks each sent once the supplier has it.
CREATE TABLE outbox (
    po_id      bigint PRIMARY KEY,
    epoch      bigint NOT NULL,
    delay_ms   integer NOT NULL,
    claimed_at timestamptz,
    sent_at    timestamptz
);
CREATE INDEX outbox_unclaimed ON outbox (po_id) WHERE claimed_at IS NULL;
ALTER TABLE outbox OWNER TO purchasing;

-- The supplier's side: what it received, written through a data source outside every
-- transaction of the app (the supplier is another system: what it got, it keeps). No key and
-- no reference to purchase_order, so a purchase order delivered twice shows as two rows, and one
-- whose work order rolled back after the send (an orphan) as a row without its order.
CREATE TABLE delivery (
    po_id       bigint NOT NULL,
    epoch       bigint NOT NULL,
    received_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX delivery_epoch ON delivery (epoch, po_id);
ALTER TABLE delivery OWNER TO purchasing;
ANALYZE part;
