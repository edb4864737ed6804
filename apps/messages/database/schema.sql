-- The messages app's database, loaded by the lab into the database "messages" as PostgreSQL's
-- superuser. The app connects as "messages", which owns the schema: the broker keeps its
-- journal here when a recipe moves it from files into the database (Artemis's JDBC store
-- creates its own tables at start), and the producer records each message it sends in
-- sent_message when a recipe asks it to (tl.msg.db_write: Producer.java).
CREATE ROLE messages LOGIN PASSWORD 'messages';
ALTER SCHEMA public OWNER TO messages;

-- One row per message sent, from every node and deployment: each numbers its own messages.
CREATE TABLE sent_message (
    deployment text NOT NULL,
    id      bigint NOT NULL,
    epoch   bigint NOT NULL,
    sent_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (deployment, id)
);
ALTER TABLE sent_message OWNER TO messages;

-- One row per message consumed, when a recipe gives the consumer a database write
-- (tl.msg.consumer_insert): no key, so that a redelivered message adds a second row.
CREATE TABLE consumed_message (
    deployment text NOT NULL,
    id      bigint NOT NULL,
    epoch   bigint NOT NULL
);
ALTER TABLE consumed_message OWNER TO messages;
