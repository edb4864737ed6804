-- The units app's database, loaded by the lab into the database "units" as PostgreSQL's
-- superuser. A bulk load appends movements; row 1 is there from the start, so that each unit
-- can show whether its second-level cache keeps a movement it read (GET /units/config).
CREATE ROLE units LOGIN PASSWORD 'units';
ALTER SCHEMA public OWNER TO units;

-- Hibernate's pooled optimizer takes 50 ids a call (Movement's allocationSize): the sequence
-- steps by 50, and starts above the probe row's id.
CREATE SEQUENCE movement_seq START 101 INCREMENT 50;

CREATE TABLE movement (
    id       bigint PRIMARY KEY,
    item     integer NOT NULL,
    quantity integer NOT NULL,
    moved    timestamptz NOT NULL,
    reason   varchar(20) NOT NULL
);
INSERT INTO movement (id, item, quantity, moved, reason) VALUES (1, 1, 1, now(), 'probe');
ALTER SEQUENCE movement_seq OWNER TO units;
ALTER TABLE movement OWNER TO units;
