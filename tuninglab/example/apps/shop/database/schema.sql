-- The shop's schema, loaded by the lab into the database "shop" as PostgreSQL's superuser.
-- The app connects as "shop" (setup.cli), which may read and write these tables, no more.
CREATE ROLE shop LOGIN PASSWORD 'shop';

CREATE TABLE product (
    id    integer PRIMARY KEY,
    name  text NOT NULL,
    price numeric(10, 2) NOT NULL,
    sold  integer NOT NULL DEFAULT 0
);

CREATE TABLE purchase (
    id         bigserial PRIMARY KEY,
    product_id integer NOT NULL REFERENCES product,
    quantity   integer NOT NULL CHECK (quantity > 0),
    placed     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchase_by_product ON purchase (product_id, placed DESC);

GRANT SELECT, INSERT, UPDATE ON product, purchase TO shop;
GRANT USAGE ON SEQUENCE purchase_id_seq TO shop;
