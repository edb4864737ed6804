-- The data: 50 categories of 2,000 offers (100,000 rows); offer n is in category n % 50, its
-- price spread over 5.00 to 1,004.99 by a multiplicative hash of n (so price order is not id
-- order), and a 200-character detail that no search selects but every row carries.
INSERT INTO offer (id, category, title, price, detail)
SELECT n, n % 50, 'offer ' || n, 5 + ((n::bigint * 7919) % 100000) / 100.0, repeat('d', 200)
FROM generate_series(1, 100000) AS n;

VACUUM ANALYZE;
