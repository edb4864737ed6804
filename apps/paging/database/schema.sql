-- The paging app's schema, loaded by the lab into the database "paging" as PostgreSQL's
-- superuser. The app connects as "paging" (setup.cli), which may only read it.
CREATE ROLE paging LOGIN PASSWORD 'paging';

CREATE TABLE offer (
    id       integer PRIMARY KEY,
    category integer NOT NULL,
    title    text NOT NULL,
    price    numeric(10, 2) NOT NULL,
    detail   text NOT NULL
);
-- A search is a category sorted by price. The index finds a category's rows; none holds them
-- in price order, so the database sorts them for every search it runs (as it must for any
-- order a user picks that no index was built for). That sort is the cost a stateless pager
-- pays again for every page.
CREATE INDEX offer_category ON offer (category);

GRANT SELECT ON offer TO paging;
