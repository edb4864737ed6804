-- The messages app's database, loaded by the lab into the database "messages" as PostgreSQL's
-- superuser. Nothing of the app lives here: it is where the broker keeps its journal when a
-- recipe moves the journal from files into the database (Artemis's JDBC store creates its
-- own tables at start). The broker connects as "messages", which owns the schema for that.
CREATE ROLE messages LOGIN PASSWORD 'messages';
ALTER SCHEMA public OWNER TO messages;
