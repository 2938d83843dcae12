-- The swap's carry-over reads the live table's indexes as the catalog's parts, one row an index, and
-- composes each CREATE INDEX again from them (maintenance/carryover.cpp): no definition text is cut
-- or parsed, every name is quoted by Bloomscope, and an expression or predicate is the server's own
-- deparse of the stored tree (pinned search_path: a function outside pg_catalog comes qualified).
-- Bound: the live table (a quoted name). Runs on the filter's session (search_path pg_catalog, pg_temp).
select ic.relname as name,
       i.indisprimary as is_primary,
       exists (select from pg_catalog.pg_constraint con
               where con.conindid = i.indexrelid and con.conrelid = i.indrelid) as is_constraint,
       i.indisvalid as is_valid,
       am.amname as method,
       pg_catalog.pg_indexam_has_property(am.oid, 'can_order') as can_order,
       i.indisunique as is_unique,
       -- PostgreSQL 15: NULLS NOT DISTINCT (no such column before)
       coalesce((pg_catalog.to_jsonb(i) ->> 'indnullsnotdistinct')::boolean, false) as nulls_not_distinct,
       i.indnkeyatts as key_columns,
       pg_catalog.pg_get_expr(i.indpred, i.indrelid, true) as predicate,
       (select pg_catalog.json_object_agg(o.option_name, o.option_value)
        from pg_catalog.pg_options_to_table(ic.reloptions) o) as options,
       (select t.spcname from pg_catalog.pg_tablespace t where t.oid = ic.reltablespace) as tablespace,
       pg_catalog.obj_description(i.indexrelid, 'pg_class') as comment,
       i.indisclustered as is_clustered,
       i.indisreplident as is_replica_identity,
       (select pg_catalog.json_agg(pg_catalog.json_build_object(
                 'column', a.attname,
                 'expression', case when i.indkey[k.n - 1] = 0
                                    then pg_catalog.pg_get_indexdef(i.indexrelid, k.n::int, true) end,
                 'opclass_schema', opcn.nspname,
                 'opclass', opc.opcname,
                 'opclass_options', (select pg_catalog.json_object_agg(o.option_name, o.option_value)
                                     from pg_catalog.pg_options_to_table(ia.attoptions) o),
                 'collation_schema', colln.nspname,
                 'collation', coll.collname,
                 'sort', i.indoption[k.n - 1],
                 'statistics', ia.attstattarget) order by k.n)
        from pg_catalog.generate_series(1, i.indnatts) k(n)
        left join pg_catalog.pg_attribute a
               on i.indkey[k.n - 1] <> 0 and a.attrelid = i.indrelid and a.attnum = i.indkey[k.n - 1]
        left join pg_catalog.pg_attribute ia on ia.attrelid = i.indexrelid and ia.attnum = k.n
        left join pg_catalog.pg_opclass opc on k.n <= i.indnkeyatts and opc.oid = i.indclass[k.n - 1]
        left join pg_catalog.pg_namespace opcn on opcn.oid = opc.opcnamespace
        left join pg_catalog.pg_collation coll on k.n <= i.indnkeyatts and coll.oid = i.indcollation[k.n - 1]
        left join pg_catalog.pg_namespace colln on colln.oid = coll.collnamespace) as columns
from pg_catalog.pg_index i
join pg_catalog.pg_class ic on ic.oid = i.indexrelid
join pg_catalog.pg_am am on am.oid = ic.relam
where i.indrelid = pg_catalog.to_regclass(?)
order by ic.relname
