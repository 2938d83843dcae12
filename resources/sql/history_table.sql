-- Bloomscope's history of a filter: one row per snapshot (bloomctl record, history, health, metrics;
-- the GUI's FPR tab). Placeholder: the schema, a quoted identifier, in double braces.

create table if not exists {{schema}}.bloomscope_history (
    id bigserial primary key,
    taken_at timestamptz not null default now(),
    filter_table text not null,
    chunks int not null, chunk_bits int not null, k int not null,
    set_bits bigint not null,
    estimated_names double precision not null,
    estimated_fpr double precision not null,
    fullest_chunk int not null, fullest_set_bits int not null,
    histogram bigint[] not null,
    cost_ms double precision not null,
    read_position bigint);
create index if not exists bloomscope_history_table_time on {{schema}}.bloomscope_history (filter_table, taken_at);
revoke all on {{schema}}.bloomscope_history from public;
comment on table {{schema}}.bloomscope_history is 'Bloomscope: snapshots of Bloom filters (bloomctl record, bloomctl history)';
