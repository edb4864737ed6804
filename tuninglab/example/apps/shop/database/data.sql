-- The shop's data: 10,000 products, none sold yet.
INSERT INTO product (id, name, price)
SELECT n, 'product ' || n, 1 + (n % 200) * 0.5
FROM generate_series(1, 10000) AS n;
