-- orderentry schema (PostgreSQL 17). The contract is apps/orderentry/API.md.
-- Hibernate never creates or alters this schema (hbm2ddl none): keep the two in step by hand.
--
-- Ids are bigint. Tables the application inserts into get a sequence INCREMENT BY 50, the
-- same as @SequenceGenerator(allocationSize = 50): Hibernate's pooled optimizer then takes
-- 50 ids per nextval() and can batch the inserts (IDENTITY columns would forbid batching).
-- Reference data (customer, supplier, item, bom, inventory) is only ever loaded by data.sql.

CREATE TABLE customer (
    id            bigint        PRIMARY KEY,
    name          varchar(64)   NOT NULL,
    credit_limit  numeric(12,2) NOT NULL,
    discount      numeric(5,4)  NOT NULL CHECK (discount >= 0 AND discount < 1),
    balance       numeric(12,2) NOT NULL,
    since         date          NOT NULL
);

CREATE TABLE supplier (
    id            bigint        PRIMARY KEY,
    name          varchar(64)   NOT NULL,
    lead_days     integer       NOT NULL
);

CREATE TABLE item (
    id            bigint        PRIMARY KEY,
    name          varchar(64)   NOT NULL,
    category      integer       NOT NULL CHECK (category BETWEEN 1 AND 20),
    price         numeric(10,2) NOT NULL CHECK (price > 0),
    supplier_id   bigint        NOT NULL REFERENCES supplier (id),
    kind          varchar(10)   NOT NULL CHECK (kind IN ('assembly', 'component'))
);
-- ItemBrowse: one category, a page in id order.
CREATE INDEX item_category_idx ON item (category, id);

-- Bill of materials: the components an assembly is built from (ScheduleWorkOrder).
CREATE TABLE bom (
    id            bigint        PRIMARY KEY,
    assembly_id   bigint        NOT NULL REFERENCES item (id),
    component_id  bigint        NOT NULL REFERENCES item (id),
    quantity      integer       NOT NULL CHECK (quantity > 0),
    UNIQUE (assembly_id, component_id)   -- also the index for "components of assembly A"
);

CREATE TABLE inventory (
    item_id       bigint        PRIMARY KEY REFERENCES item (id),
    on_hand       integer       NOT NULL,
    reorder_level integer       NOT NULL
);

CREATE SEQUENCE orders_seq INCREMENT BY 50;
CREATE TABLE orders (
    id            bigint        PRIMARY KEY,
    customer_id   bigint        NOT NULL REFERENCES customer (id),
    entered       timestamp     NOT NULL,
    status        varchar(10)   NOT NULL,
    total         numeric(12,2) NOT NULL,
    version       integer       NOT NULL
);
-- CustomerStatus: a customer's orders, newest first.
CREATE INDEX orders_customer_entered_idx ON orders (customer_id, entered DESC, id DESC);

CREATE SEQUENCE order_line_seq INCREMENT BY 50;
CREATE TABLE order_line (
    id            bigint        PRIMARY KEY,
    order_id      bigint        NOT NULL REFERENCES orders (id),
    line_no       integer       NOT NULL,
    item_id       bigint        NOT NULL REFERENCES item (id),
    quantity      integer       NOT NULL CHECK (quantity > 0),
    price         numeric(10,2) NOT NULL,   -- unit price when the order was entered
    UNIQUE (order_id, line_no)              -- also the index for "lines of order O"
);

CREATE SEQUENCE work_order_seq INCREMENT BY 50;
CREATE TABLE work_order (
    id            bigint        PRIMARY KEY,
    item_id       bigint        NOT NULL REFERENCES item (id),
    quantity      integer       NOT NULL CHECK (quantity > 0),
    status        varchar(10)   NOT NULL,
    created       timestamp     NOT NULL
);
CREATE INDEX work_order_item_idx ON work_order (item_id);

CREATE SEQUENCE purchase_order_seq INCREMENT BY 50;
CREATE TABLE purchase_order (
    id            bigint        PRIMARY KEY,
    supplier_id   bigint        NOT NULL REFERENCES supplier (id),
    created       timestamp     NOT NULL,
    status        varchar(10)   NOT NULL
);
CREATE INDEX purchase_order_supplier_idx ON purchase_order (supplier_id);

CREATE SEQUENCE purchase_order_line_seq INCREMENT BY 50;
CREATE TABLE purchase_order_line (
    id            bigint        PRIMARY KEY,
    po_id         bigint        NOT NULL REFERENCES purchase_order (id),
    item_id       bigint        NOT NULL REFERENCES item (id),
    quantity      integer       NOT NULL CHECK (quantity > 0)
);
CREATE INDEX purchase_order_line_po_idx ON purchase_order_line (po_id);

-- BulkLoad's target (empty after loading).
CREATE SEQUENCE inventory_movement_seq INCREMENT BY 50;
CREATE TABLE inventory_movement (
    id            bigint        PRIMARY KEY,
    item_id       bigint        NOT NULL REFERENCES item (id),
    quantity      integer       NOT NULL,
    moved         timestamp     NOT NULL,
    reason        varchar(16)   NOT NULL
);
