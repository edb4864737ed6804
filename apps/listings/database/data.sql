-- The data: 50 categories of 2,000 products (100,000 rows), each with a description of about
-- 100 characters; product n is in category n % 50.
INSERT INTO product (id, category, name, price, description)
SELECT n, n % 50, 'product ' || n, 1 + (n * 7) % 500 + (n % 100) / 100.0,
       'description of product ' || n || ' ' || repeat('x', 80)
FROM generate_series(1, 100000) AS n;

VACUUM ANALYZE;
