-- The work-order app's schema (article 002's ECperf hot spots, in plain tables), loaded by the
-- lab into the database "workorders" as PostgreSQL's superuser. The app connects as
-- "workorders" (setup.cli), which may read and write these tables, no more.
CREATE ROLE workorders LOGIN PASSWORD 'workorders';

-- Parts that a new work order reserves (E1: where the lock granularity matters).
CREATE TABLE part (
    id       integer PRIMARY KEY,
    name     text NOT NULL,
    reserved integer NOT NULL DEFAULT 0
);

CREATE TABLE work_order (
    id       bigserial PRIMARY KEY,
    part_ids integer[] NOT NULL,
    quantity integer NOT NULL CHECK (quantity > 0),
    created  timestamptz NOT NULL DEFAULT now()
);

-- Customer orders and their lines (E5: a review that rarely changes an order; E7: an order
-- listed with its lines; E8: two transactions that update an order's lines).
CREATE TABLE customer_order (
    id       integer PRIMARY KEY,
    customer integer NOT NULL,
    status   text NOT NULL,
    total    numeric(12, 2) NOT NULL,
    note     text NOT NULL
);

CREATE TABLE order_line (
    id       integer PRIMARY KEY,
    order_id integer NOT NULL REFERENCES customer_order,
    item     integer NOT NULL,
    quantity integer NOT NULL,
    price    numeric(10, 2) NOT NULL,
    shipped  integer NOT NULL DEFAULT 0
);
CREATE INDEX order_line_by_order ON order_line (order_id);

GRANT SELECT, INSERT, UPDATE ON part, work_order, customer_order, order_line TO workorders;
GRANT USAGE ON SEQUENCE work_order_id_seq TO workorders;
