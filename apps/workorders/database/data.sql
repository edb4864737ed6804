-- The data: 1,000 parts; 20,000 customer orders of 20 lines each (400,000 lines), the lines of
-- an order numbered one after another (order n has lines 20(n-1)+1 to 20n).
INSERT INTO part (id, name) SELECT n, 'part ' || n FROM generate_series(1, 1000) AS n;

INSERT INTO customer_order (id, customer, status, total, note)
SELECT n, 1 + n % 5000, 'open', 100 + n % 900, repeat('x', 200)
FROM generate_series(1, 20000) AS n;

INSERT INTO order_line (id, order_id, item, quantity, price)
SELECT 20 * (o - 1) + l, o, 1 + (o * 7 + l * 13) % 1000, 1 + l % 5, 1 + (o + l) % 50
FROM generate_series(1, 20000) AS o, generate_series(1, 20) AS l;

VACUUM ANALYZE;
