-- orderentry data generator: deterministic, pure SQL, scaled by a psql variable.
--
--   psql -v ON_ERROR_STOP=1 -v scale=1 -d orderentry -f schema.sql -f data.sql
--
-- Row counts at scale s (API.md): customer 10000s, supplier 50s, item 2000s (assemblies
-- 1..200s, components the rest), bom 4 per assembly, inventory one per item, orders 20000s,
-- order_line ~100000s, work_order 2000s, purchase_order 1000s, purchase_order_line ~5000s,
-- inventory_movement 0.
--
-- "Random" values come from md5 of a tag and the row number, never random(): every load at a
-- given scale yields byte-identical data, so two runs of a recipe start from the same state.

\set ON_ERROR_STOP on
\if :{?scale}
\else
  \set scale unset
\endif

-- psql does not expand variables inside dollar quotes: hand the scale over as a setting.
SELECT set_config('tl.scale', :'scale', false) AS scale \gset
DO $$
DECLARE
    given text := current_setting('tl.scale');
BEGIN
    IF given !~ '^[0-9]{1,6}$' THEN
        given := '0';   -- not a number: fall through to the one error message
    END IF;
    IF given::int < 1 THEN
        RAISE EXCEPTION 'scale must be >= 1 (got "%"); run: psql -v scale=1 -f data.sql',
            current_setting('tl.scale');
    END IF;
END
$$;

-- rnd(tag, n, lo, hi): a uniform integer in [lo, hi], fixed by (tag, n).
CREATE FUNCTION pg_temp.rnd(tag text, n bigint, lo bigint, hi bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $$ SELECT lo + ('x' || substr(md5(tag || n::text), 1, 12))::bit(48)::bigint % (hi - lo + 1) $$;

BEGIN;

INSERT INTO customer (id, name, credit_limit, discount, balance, since)
SELECT n,
       'Customer ' || lpad(n::text, 8, '0'),
       pg_temp.rnd('c.limit', n, 10, 500) * 100,
       pg_temp.rnd('c.discount', n, 0, 2500) / 10000.0,          -- 0 .. 25 %
       pg_temp.rnd('c.balance', n, 0, 1000000) / 100.0,
       date '2015-01-01' + pg_temp.rnd('c.since', n, 0, 3650)::int
FROM generate_series(1, 10000 * :scale) AS n;

INSERT INTO supplier (id, name, lead_days)
SELECT n, 'Supplier ' || lpad(n::text, 5, '0'), pg_temp.rnd('s.lead', n, 1, 30)
FROM generate_series(1, 50 * :scale) AS n;

-- Categories round-robin so every category holds the same number of items (100 per scale).
INSERT INTO item (id, name, category, price, supplier_id, kind)
SELECT n,
       CASE WHEN n <= 200 * :scale THEN 'Assembly ' ELSE 'Component ' END || lpad(n::text, 8, '0'),
       1 + (n - 1) % 20,
       CASE WHEN n <= 200 * :scale THEN pg_temp.rnd('i.price', n, 10000, 99999)
                                   ELSE pg_temp.rnd('i.price', n, 100, 9999) END / 100.0,
       pg_temp.rnd('i.supplier', n, 1, 50 * :scale),
       CASE WHEN n <= 200 * :scale THEN 'assembly' ELSE 'component' END
FROM generate_series(1, 2000 * :scale) AS n;

-- Four distinct components per assembly: offsets k * 450s apart within the 1800s components.
INSERT INTO bom (id, assembly_id, component_id, quantity)
SELECT (a - 1) * 4 + k + 1,
       a,
       200 * :scale + 1 + (pg_temp.rnd('b.comp', a, 0, 1800 * :scale - 1) + k * 450 * :scale) % (1800 * :scale),
       pg_temp.rnd('b.qty', a * 4 + k, 1, 5)
FROM generate_series(1, 200 * :scale) AS a, generate_series(0, 3) AS k;

INSERT INTO inventory (item_id, on_hand, reorder_level)
SELECT n, pg_temp.rnd('v.onhand', n, 200, 1000), pg_temp.rnd('v.reorder', n, 50, 150)
FROM generate_series(1, 2000 * :scale) AS n;

-- Orders: 1..9 lines each (about 5), unit price from the item, total after the customer's
-- discount, exactly as NewOrder computes it. Lines first, so totals need no UPDATE pass.
CREATE TEMP TABLE gen_line ON COMMIT DROP AS
SELECT o AS order_id,
       l AS line_no,
       pg_temp.rnd('l.item', o * 16 + l, 1, 2000 * :scale) AS item_id,
       pg_temp.rnd('l.qty', o * 16 + l, 1, 10)::int AS quantity
FROM generate_series(1, 20000 * :scale) AS o,
     LATERAL generate_series(1, pg_temp.rnd('o.lines', o, 1, 9)::int) AS l;

INSERT INTO orders (id, customer_id, entered, status, total, version)
SELECT o.id, o.customer_id,
       -- increasing with the id, about 25 minutes apart (one year at scale 1)
       timestamp '2024-01-01' + (o.id * 1500 + pg_temp.rnd('o.entered', o.id, 0, 1499)) * interval '1 second',
       (ARRAY['new', 'new', 'shipped', 'shipped', 'shipped', 'shipped', 'shipped', 'shipped',
              'shipped', 'closed'])[pg_temp.rnd('o.status', o.id, 1, 10)],
       round(t.gross * (1 - c.discount), 2),
       0
FROM (SELECT id, pg_temp.rnd('o.customer', id, 1, 10000 * :scale) AS customer_id
      FROM generate_series(1, 20000 * :scale) AS id) AS o
JOIN customer AS c ON c.id = o.customer_id
JOIN (SELECT g.order_id, sum(i.price * g.quantity) AS gross
      FROM gen_line AS g JOIN item AS i ON i.id = g.item_id
      GROUP BY g.order_id) AS t ON t.order_id = o.id
ORDER BY o.id;

INSERT INTO order_line (id, order_id, line_no, item_id, quantity, price)
SELECT row_number() OVER (ORDER BY g.order_id, g.line_no), g.order_id, g.line_no, g.item_id, g.quantity, i.price
FROM gen_line AS g JOIN item AS i ON i.id = g.item_id
ORDER BY g.order_id, g.line_no;

INSERT INTO work_order (id, item_id, quantity, status, created)
SELECT n,
       pg_temp.rnd('w.item', n, 1, 200 * :scale),
       pg_temp.rnd('w.qty', n, 1, 10),
       CASE WHEN pg_temp.rnd('w.status', n, 1, 10) <= 8 THEN 'completed' ELSE 'scheduled' END,
       timestamp '2024-01-01' + (n * 15000 + pg_temp.rnd('w.created', n, 0, 14999)) * interval '1 second'
FROM generate_series(1, 2000 * :scale) AS n;

INSERT INTO purchase_order (id, supplier_id, created, status)
SELECT n,
       pg_temp.rnd('p.supplier', n, 1, 50 * :scale),
       timestamp '2024-01-01' + (n * 30000 + pg_temp.rnd('p.created', n, 0, 29999)) * interval '1 second',
       CASE WHEN pg_temp.rnd('p.status', n, 1, 10) <= 9 THEN 'received' ELSE 'open' END
FROM generate_series(1, 1000 * :scale) AS n;

-- 1..9 component lines per purchase order (about 5).
INSERT INTO purchase_order_line (id, po_id, item_id, quantity)
SELECT row_number() OVER (ORDER BY p, l), p, pg_temp.rnd('pl.item', p * 16 + l, 200 * :scale + 1, 2000 * :scale),
       pg_temp.rnd('pl.qty', p * 16 + l, 50, 500)
FROM generate_series(1, 1000 * :scale) AS p,
     LATERAL generate_series(1, pg_temp.rnd('p.lines', p, 1, 9)::int) AS l
ORDER BY p, l;

-- Move each sequence past the loaded ids. Hibernate's pooled optimizer reads a nextval() of v
-- as the block v-49..v, so setval(max) makes the first block max+1..max+50: no collision.
-- (An empty table keeps its fresh sequence: setval(NULL) is a no-op.)
SELECT setval('orders_seq',              (SELECT max(id) FROM orders))              AS orders_seq,
       setval('order_line_seq',          (SELECT max(id) FROM order_line))          AS order_line_seq,
       setval('work_order_seq',          (SELECT max(id) FROM work_order))          AS work_order_seq,
       setval('purchase_order_seq',      (SELECT max(id) FROM purchase_order))      AS purchase_order_seq,
       setval('purchase_order_line_seq', (SELECT max(id) FROM purchase_order_line)) AS purchase_order_line_seq,
       setval('inventory_movement_seq',  (SELECT max(id) FROM inventory_movement))  AS inventory_movement_seq;

COMMIT;

-- Planner statistics now, and frozen, all-visible pages, so the first measured run does not
-- pay for hint bits, visibility-map updates or autovacuum of freshly loaded tables.
VACUUM (FREEZE, ANALYZE) customer, supplier, item, bom, inventory, orders, order_line,
    work_order, purchase_order, purchase_order_line, inventory_movement;
