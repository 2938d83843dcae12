-- The swap's carry-over reads the live table's triggers as the catalog's parts, one row a trigger,
-- and composes each CREATE TRIGGER again from them (maintenance/carryover.cpp): the definition text
-- pg_get_triggerdef() prints is never cut or parsed. A WHEN condition has no deparse of its own
-- (pg_get_expr() cannot print OLD and NEW): such a trigger is listed as not carried.
-- Bound: the live table (a quoted name). Runs on the filter's session (search_path pg_catalog, pg_temp).
select t.tgname as name,
       t.tgtype as type,
       t.tgenabled::text as enabled,
       t.tgconstraint <> 0 as is_constraint,
       t.tgqual is not null as has_when,
       pn.nspname as function_schema,
       p.proname as function,
       t.tgnargs as nargs,
       t.tgargs as args,
       t.tgoldtable as old_table,
       t.tgnewtable as new_table,
       (select pg_catalog.json_agg(a.attname order by k.i)
        from pg_catalog.unnest(t.tgattr::int2[]) with ordinality k(attnum, i)
        join pg_catalog.pg_attribute a on a.attrelid = t.tgrelid and a.attnum = k.attnum) as update_columns,
       pg_catalog.obj_description(t.oid, 'pg_trigger') as comment
from pg_catalog.pg_trigger t
join pg_catalog.pg_proc p on p.oid = t.tgfoid
join pg_catalog.pg_namespace pn on pn.oid = p.pronamespace
where t.tgrelid = pg_catalog.to_regclass(?) and not t.tgisinternal
order by t.tgname
