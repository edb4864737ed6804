-- The listings app's schema, loaded by the lab into the database "listings" as PostgreSQL's
-- superuser. The app connects as "listings" (setup.cli), which may only read it.
CREATE ROLE listings LOGIN PASSWORD 'listings';

CREATE TABLE product (
    id          integer PRIMARY KEY,
    category    integer NOT NULL,
    name        text NOT NULL,
    price       numeric(10, 2) NOT NULL,
    description text NOT NULL
);
-- A page of a category, in id order, is one index range.
CREATE INDEX product_category ON product (category, id);

GRANT SELECT ON product TO listings;
