-- The notify app's database, loaded by the lab into the database "notify" as PostgreSQL's
-- superuser. The back end (Backend.java) reads each user's notifications from it: five for
-- each of 5,000 users, so every session's user has news to fetch.
CREATE ROLE notify LOGIN PASSWORD 'notify';
ALTER SCHEMA public OWNER TO notify;

CREATE TABLE notification (
    user_id integer NOT NULL,
    id      bigint NOT NULL,
    body    text NOT NULL,
    PRIMARY KEY (user_id, id)
);
INSERT INTO notification (user_id, id, body)
SELECT u, n, 'notification ' || n || ' for user ' || u
FROM generate_series(1, 5000) AS u, generate_series(1, 5) AS n;
ALTER TABLE notification OWNER TO notify;
ANALYZE notification;
